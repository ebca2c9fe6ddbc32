// Revoking an API key with what goes with it, in one transaction: the key stops working and its
// scheduled tasks become inactive, with no next run (docs/api.md, "Scheduled tasks").
import type { ApiKeys } from './keys/api-keys.js';
import { deactivateTasksOfOwners } from './tasks/task-store.js';

/** Revokes by id or printed prefix; answers how many keys were revoked (0 when none or already revoked). */
export async function revokeApiKey(keys: ApiKeys, idOrPrefix: string): Promise<number> {
  return keys.revoke(idOrPrefix, deactivateTasksOfOwners);
}
