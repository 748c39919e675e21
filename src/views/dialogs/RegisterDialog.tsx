import { useSelector } from '@xstate/react';
import { errorMessageKey } from '../../api/errors.ts';
import type { components } from '../../api/schema.d.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { passwordTicks, registerMachine, statesOfCountry } from '../../machines/register.machine.ts';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { Dialog } from '../components/Dialog.tsx';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import {
  Actions,
  formBindings,
  Form,
  Intro,
  Links,
  Panel,
  PasswordField,
  PasswordRules,
  Row,
  type AccountDialogName,
} from './parts.tsx';
import { SocialSignIn } from './SocialSignIn.tsx';

type Gender = components['schemas']['Gender'];

/** One label per gender of openapi.yaml (a Record: a new gender without a label does not compile). */
const GENDER_LABELS: Readonly<Record<Gender, MessageKey>> = {
  male: 'auth.genders.male',
  female: 'auth.genders.female',
  other: 'auth.genders.other',
};

export interface RegisterDialogProps {
  onClose: () => void;
  switchTo: (name: AccountDialogName) => void;
}

/** The referral code of the link the player came by (`?ref=`), or null. */
function referralCodeFromLink(): string | null {
  return typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('ref');
}

/** The register dialog (SPEC §4 signup, §5 rules): every field checked as the player types. */
export default function RegisterDialog({ onClose, switchTo }: RegisterDialogProps) {
  const { t } = useT();
  const actor = useFlow(registerMachine, { referralCode: referralCodeFromLink() });
  const snapshot = useSelector(actor, (s) => s);
  const { values, fieldErrors, countries, errorCode } = snapshot.context;
  const submitting = snapshot.matches({ form: 'submitting' });
  const { field, submit } = formBindings(actor.send, t, values, fieldErrors);

  if (snapshot.matches({ form: 'done' })) {
    return (
      <Dialog size="wide" title={t('auth.register.title')} closeLabel={t('common.close')} onClose={onClose}>
        <Panel role="status">
          <p>{t('messages.registerSuccess')}</p>
          <p>{t('auth.register.checkInbox', { email: values.email })}</p>
        </Panel>
        <Actions>
          {/* The form's button is gone: focus moves to the way out. */}
          <Button type="button" autoFocus onClick={onClose}>
            {t('common.close')}
          </Button>
        </Actions>
      </Dialog>
    );
  }

  const countriesLoading = snapshot.matches({ countries: 'loading' });
  const countriesUnavailable = snapshot.matches({ countries: 'unavailable' });
  const states = statesOfCountry(snapshot.context);
  const countryChosen = values.countryCode !== '';

  return (
    <Dialog size="wide" title={t('auth.register.title')} closeLabel={t('common.close')} onClose={onClose}>
      <Intro>{t('auth.register.intro')}</Intro>
      <Form onSubmit={submit} noValidate>
        {snapshot.matches({ form: 'failed' }) ? (
          <FormError role="alert">{t(errorMessageKey(errorCode, 'signup'))}</FormError>
        ) : null}
        <Row>
          <TextField label={t('auth.register.firstName')} autoComplete="given-name" {...field('firstName')} />
          <TextField
            label={`${t('auth.register.middleName')} (${t('common.optional')})`}
            autoComplete="additional-name"
            {...field('middleName')}
          />
        </Row>
        <TextField label={t('auth.register.lastName')} autoComplete="family-name" {...field('lastName')} />
        <TextField
          label={t('auth.register.email')}
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          {...field('email')}
        />
        <TextField
          label={t('auth.register.username')}
          hint={t('auth.register.usernameHint')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...field('username')}
        />
        <PasswordField
          label={t('auth.register.password')}
          autoComplete="new-password"
          hint={<PasswordRules ticks={passwordTicks(snapshot.context)} />}
          {...field('password')}
        />
        <PasswordField
          label={t('auth.register.confirmPassword')}
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        <Row>
          <SelectField label={t('auth.register.gender')} {...field('gender')}>
            <option value="">{t('auth.register.genderPlaceholder')}</option>
            {(Object.keys(GENDER_LABELS) as Gender[]).map((gender) => (
              <option key={gender} value={gender}>
                {t(GENDER_LABELS[gender])}
              </option>
            ))}
          </SelectField>
          <TextField label={t('auth.register.dateOfBirth')} type="date" autoComplete="bday" {...field('dateOfBirth')} />
        </Row>
        <Row columns="1fr 2fr">
          <TextField label={t('auth.register.phoneCode')} autoComplete="tel-country-code" inputMode="tel" {...field('phoneCode')} />
          <TextField label={t('auth.register.phone')} type="tel" autoComplete="tel-national" inputMode="numeric" {...field('phone')} />
        </Row>
        <TextField label={t('auth.register.address')} autoComplete="street-address" {...field('address')} />
        <Row>
          <SelectField
            label={t('auth.register.country')}
            autoComplete="country"
            disabled={countriesLoading || countriesUnavailable}
            aria-busy={countriesLoading}
            {...field('countryCode')}
          >
            <option value="">{countriesLoading ? t('states.loading') : t('auth.register.countryPlaceholder')}</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </SelectField>
          {countryChosen && states.length === 0 && !countriesLoading ? (
            // A country without a list of states: the player types the code.
            <TextField label={t('auth.register.state')} autoComplete="address-level1" {...field('stateCode')} />
          ) : (
            <SelectField
              label={t('auth.register.state')}
              autoComplete="address-level1"
              disabled={!countryChosen}
              {...field('stateCode')}
            >
              <option value="">{t('auth.register.statePlaceholder')}</option>
              {states.map((state) => (
                <option key={state.code} value={state.code}>
                  {state.name}
                </option>
              ))}
            </SelectField>
          )}
        </Row>
        {countriesUnavailable ? (
          <FormError role="alert">
            {t('auth.register.countriesUnavailable')}{' '}
            <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'COUNTRIES.RETRY' })}>
              {t('common.retry')}
            </Button>
          </FormError>
        ) : null}
        <Row>
          <TextField label={t('auth.register.city')} autoComplete="address-level2" {...field('city')} />
          <TextField label={t('auth.register.zipCode')} autoComplete="postal-code" inputMode="numeric" {...field('zipCode')} />
        </Row>
        <TextField
          label={`${t('auth.register.referralCode')} (${t('common.optional')})`}
          autoCapitalize="none"
          spellCheck={false}
          {...field('referralCode')}
        />
        <Actions>
          <Button type="submit" disabled={submitting} aria-busy={submitting}>
            {submitting ? t('auth.register.submitting') : t('auth.register.submit')}
          </Button>
        </Actions>
      </Form>
      <SocialSignIn />
      <Links>
        <span>
          {t('auth.register.haveAccount')}{' '}
          <Button type="button" variant="link" onClick={() => switchTo('login')}>
            {t('auth.register.loginLink')}
          </Button>
        </span>
      </Links>
    </Dialog>
  );
}
