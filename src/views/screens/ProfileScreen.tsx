import { useCallback, useId, useRef, useState, type ComponentType } from 'react';
import { styled } from 'goober';
import type { MessageKey } from '../../i18n/index.ts';
import { Screen } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { Addresses } from '../profile/Addresses.tsx';
import { BasicInformation } from '../profile/BasicInformation.tsx';
import { Picture } from '../profile/Picture.tsx';
import Documents from '../profile/Documents.tsx';
import ChangePassword from '../profile/ChangePassword.tsx';
import { theme } from '../theme.ts';

/*
 * The profile page (SPEC §2): an accordion of sections, each a component of src/views/profile/ that runs
 * its own flow while it is open. One section is open at a time (a phone shows one form, not five); a
 * section closes itself when its work is done (SPEC §4: a profile edit that succeeds closes it).
 */

/** The sections by id, in the order SPEC §2 lists them. */
export type ProfileSectionId = 'basic-information' | 'identity-verification' | 'addresses' | 'picture' | 'change-password';

/** What every section is given: `close` folds it (after a success); `show` opens another one, focus on its heading. */
export interface ProfileSectionProps {
  close: () => void;
  show: (id: ProfileSectionId) => void;
}

interface ProfileSection {
  id: ProfileSectionId;
  title: MessageKey;
  Body: ComponentType<ProfileSectionProps>;
}

/** The accordion's sections, in the order SPEC §2 lists them. */
const SECTIONS: readonly ProfileSection[] = [
  { id: 'basic-information', title: 'profile.basicInformation.title', Body: BasicInformation },
  { id: 'identity-verification', title: 'profile.identity.title', Body: Documents },
  { id: 'addresses', title: 'profile.addresses.title', Body: Addresses },
  { id: 'picture', title: 'profile.picture.title', Body: Picture },
  { id: 'change-password', title: 'profile.changePassword.title', Body: ChangePassword },
];

const Accordion = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  max-width: 48rem;
  h2 {
    margin: 0;
    font-size: ${theme.font.size.large};
  }
  .toggle {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: ${theme.space(3)};
    width: 100%;
    min-height: 3rem;
    padding: ${theme.space(3)} ${theme.space(4)};
    font: inherit;
    font-weight: 600;
    text-align: start;
    color: ${theme.color.text};
    background: ${theme.color.surface};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.large};
    cursor: pointer;
  }
  .toggle[aria-expanded='true'] {
    border-bottom-left-radius: 0;
    border-bottom-right-radius: 0;
  }
  .toggle:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  .sign {
    font-size: 1.25em;
    color: ${theme.color.textMuted};
  }
  .panel {
    padding: ${theme.space(4)};
    border: 1px solid ${theme.color.border};
    border-top: none;
    border-radius: 0 0 ${theme.radius.large} ${theme.radius.large};
    background: ${theme.color.surface};
    min-width: 0;
  }
`;

interface SectionProps extends ProfileSectionProps {
  section: ProfileSection;
  open: boolean;
  toggle: () => void;
  /** The heading's button, for `show`. */
  buttonRef: (button: HTMLButtonElement | null) => void;
}

function Section({ section, open, toggle, close, show, buttonRef }: SectionProps) {
  const { t } = useT();
  const id = useId();
  const button = useRef<HTMLButtonElement | null>(null);
  const { Body } = section;
  const setButton = useCallback(
    (element: HTMLButtonElement | null) => {
      button.current = element;
      buttonRef(element);
    },
    [buttonRef],
  );
  // Closed by its own work (a save): focus goes back to the section's heading, not to the page's start.
  const closeHere = useCallback(() => {
    close();
    button.current?.focus();
  }, [close]);
  return (
    <section aria-labelledby={`${id}-button`} data-section={section.id}>
      <h2>
        <button ref={setButton} type="button" className="toggle" id={`${id}-button`} aria-expanded={open} aria-controls={`${id}-panel`} onClick={toggle}>
          {t(section.title)}
          <span className="sign" aria-hidden="true">
            {open ? '−' : '+'}
          </span>
        </button>
      </h2>
      {open ? (
        <div className="panel" id={`${id}-panel`}>
          <Body close={closeHere} show={show} />
        </div>
      ) : null}
    </section>
  );
}

export default function ProfileScreen() {
  const { t } = useT();
  const [open, setOpen] = useState<ProfileSectionId | null>(SECTIONS[0]?.id ?? null);
  const close = useCallback(() => setOpen(null), []);
  const buttons = useRef(new Map<ProfileSectionId, HTMLButtonElement>());
  const show = useCallback((id: ProfileSectionId) => {
    setOpen(id);
    buttons.current.get(id)?.focus();
  }, []);
  return (
    <PlayerOnly title={t('profile.title')}>
      <Screen title={t('profile.title')}>
        <Accordion>
          {SECTIONS.map((section) => (
            <Section
              key={section.id}
              section={section}
              open={open === section.id}
              toggle={() => setOpen((current) => (current === section.id ? null : section.id))}
              close={close}
              show={show}
              buttonRef={(button) => {
                if (button) buttons.current.set(section.id, button);
                else buttons.current.delete(section.id);
              }}
            />
          ))}
        </Accordion>
      </Screen>
    </PlayerOnly>
  );
}
