import { assign, setup } from 'xstate';
import { checkFile } from '../rules/files.ts';
import type { RuleCode } from '../rules/codes.ts';
import { notProvided, type ErrorCode, type User } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The profile picture (SPEC §3 profile image, §5 "jpg, png, jpeg, under 5 MB"). The current picture
 * shows (the player's profileImageUrl). CHOOSE checks the file before anything is sent: a refused one
 * stays unchosen with the rule's message beside the control; an accepted one is previewed, and UPLOAD
 * sends it (multipart) or CANCEL drops it. REMOVE deletes the current picture. Each success stores the
 * player the server answered with in the app (the header's picture too); a refusal shows its message.
 */

export interface ProfilePictureInput {
  user: User;
}

export interface ProfilePictureContext {
  imageUrl: string | null;
  /** The file chosen and accepted, previewed until it is sent or dropped. */
  file: File | null;
  /** Why the last file chosen was refused before sending. */
  fileError: RuleCode | null;
  errorCode: ErrorCode | null;
  /** A call failed (with or without a code): the view says so. */
  failed: boolean;
}

export type ProfilePictureEvent = { type: 'CHOOSE'; file: File } | { type: 'UPLOAD' } | { type: 'CANCEL' } | { type: 'REMOVE' };

export const profilePictureMachine = setup({
  types: {
    context: {} as ProfilePictureContext,
    events: {} as ProfilePictureEvent,
    input: {} as ProfilePictureInput,
  },
  actors: {
    /** POST /user/upload-profile-image (multipart, one `file` part) */
    uploadProfileImage: notProvided<User, { file: File }>('uploadProfileImage'),
    /** POST /user/remove-profile-image */
    removeProfileImage: notProvided<User, undefined>('removeProfileImage'),
  },
  actions: {
    updateUser: (_, _params: { user: User }) => {},
    choose: assign((_, params: { file: File }) => ({ file: params.file, fileError: null, errorCode: null, failed: false })),
    refuse: assign((_, params: { file: File }) => ({ file: null, fileError: checkFile(params.file, 'profileImage'), errorCode: null, failed: false })),
    drop: assign({ file: null, fileError: null, errorCode: null, failed: false }),
    storeUser: assign((_, params: { user: User }) => ({ imageUrl: params.user.profileImageUrl, file: null, errorCode: null, failed: false })),
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code, failed: true })),
    clearFailure: assign({ errorCode: null, failed: false, fileError: null }),
  },
  guards: {
    refused: (_, params: { file: File }) => checkFile(params.file, 'profileImage') !== null,
  },
}).createMachine({
  id: 'profilePicture',
  context: ({ input }) => ({ imageUrl: input.user.profileImageUrl, file: null, fileError: null, errorCode: null, failed: false }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        CHOOSE: [
          { guard: { type: 'refused', params: ({ event }) => ({ file: event.file }) }, actions: { type: 'refuse', params: ({ event }) => ({ file: event.file }) } },
          { target: 'chosen', actions: { type: 'choose', params: ({ event }) => ({ file: event.file }) } },
        ],
        REMOVE: 'removing',
      },
    },
    chosen: {
      on: {
        CHOOSE: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ file: event.file }) },
            target: 'idle',
            actions: { type: 'refuse', params: ({ event }) => ({ file: event.file }) },
          },
          { actions: { type: 'choose', params: ({ event }) => ({ file: event.file }) } },
        ],
        UPLOAD: 'uploading',
        CANCEL: { target: 'idle', actions: 'drop' },
      },
    },
    uploading: {
      entry: 'clearFailure',
      invoke: {
        src: 'uploadProfileImage',
        input: ({ context }) => ({ file: context.file as File }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'storeUser', params: ({ event }) => ({ user: event.output }) }, { type: 'updateUser', params: ({ event }) => ({ user: event.output }) }],
        },
        onError: { target: 'chosen', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    removing: {
      entry: 'clearFailure',
      invoke: {
        src: 'removeProfileImage',
        onDone: {
          target: 'idle',
          actions: [{ type: 'storeUser', params: ({ event }) => ({ user: event.output }) }, { type: 'updateUser', params: ({ event }) => ({ user: event.output }) }],
        },
        onError: { target: 'idle', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
