import type { ApiClient } from '../api/client.ts';
import { settle } from './actors.ts';
import type { Address, AddressUpdate, NewAddress } from './addresses.machine.ts';
import type { User } from './effects.ts';
import type { ProfileRequest } from './profile.machine.ts';

/*
 * The calls of the profile's basic information, addresses and picture, one per actor name.
 * src/machines/actors.ts makes them actors that load this module with their first call, so the SPA's
 * first load does not carry them.
 */

export const profileCalls = {
  /** POST /user/update */
  updateProfile: async (client: ApiClient, input: ProfileRequest, signal: AbortSignal): Promise<User> =>
    (await settle(client.POST('/user/update', { body: input, signal }))).data.user,
  /** GET /user/get-addresses */
  loadAddresses: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<Address[]> =>
    (await settle(client.GET('/user/get-addresses', { signal }))).data.addresses,
  /** POST /user/add-address */
  addAddress: async (client: ApiClient, input: NewAddress, signal: AbortSignal): Promise<Address> =>
    (await settle(client.POST('/user/add-address', { body: input, signal }))).data.address,
  /** POST /user/update-address */
  updateAddress: async (client: ApiClient, input: AddressUpdate, signal: AbortSignal): Promise<Address> =>
    (await settle(client.POST('/user/update-address', { body: input, signal }))).data.address,
  /** POST /user/remove-address */
  removeAddress: async (client: ApiClient, input: { addressId: number }, signal: AbortSignal): Promise<void> => {
    await settle(client.POST('/user/remove-address', { body: input, signal }));
  },
  /** POST /user/upload-profile-image, multipart: one `file` part (the browser sets the boundary). */
  uploadProfileImage: async (client: ApiClient, input: { file: File }, signal: AbortSignal): Promise<User> => {
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    return (await settle(client.POST('/user/upload-profile-image', { body: { file: input.file.name }, bodySerializer: () => form, signal }))).data.user;
  },
  /** POST /user/remove-profile-image */
  removeProfileImage: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<User> =>
    (await settle(client.POST('/user/remove-profile-image', { signal }))).data.user,
};

export type ProfileCalls = typeof profileCalls;
