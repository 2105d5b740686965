// The per-transaction settings that tell row-level security which org (and partition) a
// transaction works for; set with set_config(name, value, true) so they end with the transaction.

/** The org a transaction works on; honoured only when the role is a member of that org. */
export const PG_ORG_SETTING = 'statelens.org';
/** Optional: narrows a transaction to one partition of its org ('' or unset: every partition the role may see). */
export const PG_PARTITION_SETTING = 'statelens.partition';
/** Administrators only: 'on' lifts the org restriction for the transaction (migrations, cross-org jobs). */
export const PG_ALL_ORGS_SETTING = 'statelens.all_orgs';
