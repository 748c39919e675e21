// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { profilePictureFixtures } from '../../src/flows/fixtures/profile.ts';
import type { User } from '../../src/machines/effects.ts';
import type { profilePictureMachine } from '../../src/machines/profilePicture.machine.ts';
import { PictureEditor } from '../../src/views/profile/Picture.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, outputOf, type View } from './run.tsx';
import { button, expectButton, formAlerts } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type PictureView = View<typeof profilePictureMachine>;
type PictureSnapshot = SnapshotFrom<typeof profilePictureMachine>;

/*
 * The profile picture: the current one (or none), a chosen file checked before anything is sent (the
 * rule's message beside the picker, tied to it) and previewed, Upload and Cancel, Remove; what was sent
 * (only accepted files), and the player stored in the app after each success.
 */

const uploads = new WeakMap<PictureView, File[]>();

/** The players the app was told of: one per success. */
function expectedUsers(view: PictureView): User[] {
  return view.steps.flatMap((step) =>
    step.kind.kind === 'done' && (step.kind.src === 'uploadProfileImage' || step.kind.src === 'removeProfileImage') ? [outputOf<User>(step)] : [],
  );
}

const picker = (view: PictureView) => screen.getByLabelText(view.t('profile.picture.choose')) as HTMLInputElement;

function seeEffects(view: PictureView) {
  expect(view.harness.appEvents.filter((event) => event.type === 'USER.UPDATED')).toEqual(expectedUsers(view).map((user) => ({ type: 'USER.UPDATED', user })));
  // Only the files the rules accepted were sent, once per UPLOAD.
  const sent = uploads.get(view)!;
  expect(sent.length).toBe(view.steps.filter((step) => step.event.type === 'UPLOAD').length);
  expect(view.harness.notices).toEqual([]);
}

function seePicture(view: PictureView, snapshot: PictureSnapshot, busy: boolean) {
  seeEffects(view);
  const { context } = snapshot;
  const input = picker(view);
  expect(input.disabled).toBe(busy);
  const described = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
  expect(described[0]).toBe(view.t('profile.picture.hint'));
  if (context.fileError) {
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(described[1]).toBe(view.t(ruleMessageKey(context.fileError)!));
  } else expect(described).toHaveLength(1);
  expect(formAlerts().filter((text) => text !== view.t(ruleMessageKey(context.fileError ?? 'required')!))).toEqual(
    context.failed ? [view.t(errorMessageKey(context.errorCode, 'default'))] : [],
  );
}

function seeCurrent(view: PictureView, snapshot: PictureSnapshot) {
  const { imageUrl } = snapshot.context;
  const image = screen.queryByRole('img', { name: view.t('profile.picture.alt', { name: view.input.user.username }) });
  expect(image?.getAttribute('src') ?? null).toBe(imageUrl);
  if (imageUrl === null) expect(screen.getByText(view.t('profile.picture.none'))).toBeTruthy();
  expect(screen.queryByRole('img', { name: view.t('profile.picture.preview') })).toBeNull();
  expect(screen.queryByRole('button', { name: view.t('profile.picture.upload') })).toBeNull();
}

function seeChosen(view: PictureView) {
  expect(screen.getByRole('img', { name: view.t('profile.picture.preview') }).getAttribute('src')).toMatch(/^blob:/);
  expect(screen.getByText(view.t('profile.picture.previewNote'))).toBeTruthy();
}

describeModel('profilePicture', {
  fixtures: profilePictureFixtures,
  // Remove is offered for a picture there is.
  filterEvents: (snapshot, event) => event.type !== 'REMOVE' || (snapshot.context as PictureSnapshot['context']).imageUrl !== null,
  render: (view) => {
    const files: File[] = [];
    uploads.set(view, files);
    const uploadProfileImage = fromPromise<User, { file: File }>(({ input, signal }) => {
      files.push(input.file);
      return view.call('uploadProfileImage', input, signal);
    });
    return renderWithServices(<PictureEditor user={view.input.user} />, { actors: { ...view.actors, uploadProfileImage } });
  },
  events: {
    // The picker's change as the browser fires it (the `accept` filter of a file dialog is only a hint).
    CHOOSE: async (view, event) => {
      fireEvent.change(picker(view), { target: { files: [event.file] } });
    },
    UPLOAD: (view) => view.user.click(button(view.t('profile.picture.upload'))),
    CANCEL: (view) => view.user.click(button(view.t('common.cancel'))),
    REMOVE: (view) => view.user.click(button(view.t('profile.picture.remove'))),
  },
  states: {
    idle: (view, snapshot) => {
      seePicture(view, snapshot, false);
      seeCurrent(view, snapshot);
      if (snapshot.context.imageUrl !== null) expectButton(view.t('profile.picture.remove'), false);
      else expect(screen.queryByRole('button', { name: view.t('profile.picture.remove') })).toBeNull();
    },
    chosen: (view, snapshot) => {
      seePicture(view, snapshot, false);
      seeChosen(view);
      expectButton(view.t('profile.picture.upload'), false);
    },
    uploading: (view, snapshot) => {
      seePicture(view, snapshot, true);
      seeChosen(view);
      expectButton(view.t('profile.picture.uploading'), true);
      expect(uploads.get(view)!.at(-1)).toBe(snapshot.context.file);
    },
    removing: (view, snapshot) => {
      seePicture(view, snapshot, true);
      expectButton(view.t('profile.picture.removing'), true);
    },
  },
});
