import type { ApiClient } from '../api/client.ts';
import { settle } from './actors.ts';
import type { LimitUpdate, ResponsibleGambling } from './limits.machine.ts';
import { exclusionBody, type ExclusionRequest, type SelfExclusion } from './selfExclusion.machine.ts';
import type { SessionLimitRequest } from './sessionLimit.machine.ts';

/*
 * The responsible-gambling calls (tag responsible-gambling of openapi.yaml, and the session limit), one
 * per actor name. src/machines/actors.ts makes them actors that load this module with their first call,
 * so the SPA's first load does not carry them.
 */

export const limitsCalls = {
  /** GET /responsible-gambling/get-limits */
  loadLimits: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<ResponsibleGambling> =>
    (await settle(client.GET('/responsible-gambling/get-limits', { signal }))).data.limits,
  /** POST /responsible-gambling/update-limit */
  saveLimits: async (client: ApiClient, input: LimitUpdate, signal: AbortSignal): Promise<ResponsibleGambling> =>
    (await settle(client.POST('/responsible-gambling/update-limit', { body: input, signal }))).data.limits,
  /** POST /responsible-gambling/update-self-exclusion, a temporary one ending its days after now. */
  selfExclude: async (client: ApiClient, input: ExclusionRequest, signal: AbortSignal): Promise<SelfExclusion> =>
    (await settle(client.POST('/responsible-gambling/update-self-exclusion', { body: exclusionBody(input, Date.now()), signal }))).data.selfExclusion,
  /** POST /user/update-session-limit */
  saveSessionLimit: async (client: ApiClient, input: SessionLimitRequest, signal: AbortSignal): Promise<number | null> =>
    (await settle(client.POST('/user/update-session-limit', { body: input, signal }))).data.sessionLimitMinutes,
};

export type LimitsCalls = typeof limitsCalls;
