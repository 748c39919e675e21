import type { components } from '../../src/api/schema.d.ts';

export type HouseErrorCode = components['schemas']['ErrorCode'];

/**
 * A refusal of the built-in game provider, by its openapi.yaml code. The provider is an outside party (it
 * never imports the domain); its API handler (server/http/house.ts) turns this into the envelope.
 */
export class HouseGameError extends Error {
  constructor(
    readonly code: HouseErrorCode,
    readonly fields?: { field: string; code: string }[],
  ) {
    super(code);
    this.name = 'HouseGameError';
  }
}

export const badHouseRequest = (field: string, code: string) => new HouseGameError('PLEASE_CHECK_REQUEST_DATA', [{ field, code }]);
