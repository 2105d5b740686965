// Fault tests that need what a machine may lack (root, mount, a project other users can read)
// skip with the reason printed, except in CI, where a skip would let the run pass unchecked.

export function skipOrFail(ctx: { skip(): void; task: { name: string } }, reason: string): void {
  if (process.env.CI) throw new Error(`"${ctx.task.name}" cannot run in CI: ${reason}.`);
  console.log(`[faults] SKIPPED "${ctx.task.name}": ${reason}`);
  ctx.skip();
}
