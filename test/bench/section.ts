// The section shape and figure helpers live with the `statelens bench` command (production
// code); the benchmark sections in this folder use them from here.
export * from '../../electron/bench/section';
