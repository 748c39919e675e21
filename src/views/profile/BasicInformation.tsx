import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { errorMessageKey } from '../../api/errors.ts';
import type { components } from '../../api/schema.d.ts';
import type { MessageKey } from '../../i18n/index.ts';
import type { User } from '../../machines/effects.ts';
import { profileMachine, profileValues, statesOfProfileCountry } from '../../machines/profile.machine.ts';
import { Button } from '../components/Button.tsx';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Actions, Form, formBindings, Intro, Row } from '../dialogs/parts.tsx';
import { useT } from '../i18n-context.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';
import { useFlow, useWiring } from '../wiring.ts';
import { RegionFields } from './fields.tsx';

/*
 * The profile's basic information (src/machines/profile.machine.ts): every SPEC §3 user field with its
 * SPEC §5 rules beside it, the email shown (it cannot change here). Saved, the section closes.
 */

type Gender = components['schemas']['Gender'];

const GENDER_LABELS: Readonly<Record<Gender, MessageKey>> = {
  male: 'auth.genders.male',
  female: 'auth.genders.female',
  other: 'auth.genders.other',
};

export function BasicInformation({ close }: ProfileSectionProps) {
  const { app } = useWiring();
  const user = useSelector(app, (s) => s.context.user);
  // The player's details changed elsewhere (a profile fetched again): the form starts again with them.
  return user ? <ProfileForm key={JSON.stringify([user.email, profileValues(user)])} user={user} close={close} /> : null;
}

export function ProfileForm({ user, close }: Pick<ProfileSectionProps, 'close'> & { user: User }) {
  const { t } = useT();
  const actor = useFlow(profileMachine, { user });
  const snapshot = useSelector(actor, (s) => s);
  const { values, fieldErrors, countries, errorCode, email } = snapshot.context;
  const saving = snapshot.matches({ form: 'saving' });
  const done = snapshot.matches({ form: 'done' });
  // Saved: the section closes at once (the app's new player may restart this form before an effect of it would run).
  useEffect(() => {
    let closed = false;
    const subscription = actor.subscribe((next) => {
      if (!closed && next.matches({ form: 'done' })) {
        closed = true;
        close();
      }
    });
    return () => subscription.unsubscribe();
  }, [actor, close]);
  const { field, submit } = formBindings(actor.send, t, values, fieldErrors);
  return (
    <Form onSubmit={submit} noValidate>
      <Intro>{t('profile.basicInformation.intro')}</Intro>
      {user.profileComplete ? null : <Intro>{t('profile.basicInformation.incomplete')}</Intro>}
      {errorCode ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
      <TextField
        label={t('profile.basicInformation.email')}
        value={email}
        readOnly
        hint={`${user.emailVerified ? t('profile.basicInformation.emailVerified') : t('profile.basicInformation.emailNotVerified')} · ${t('profile.basicInformation.emailFixed')}`}
      />
      <TextField label={t('auth.register.username')} hint={t('auth.register.usernameHint')} autoComplete="username" autoCapitalize="none" spellCheck={false} {...field('username')} />
      <Row>
        <TextField label={t('auth.register.firstName')} autoComplete="given-name" {...field('firstName')} />
        <TextField label={`${t('auth.register.middleName')} (${t('common.optional')})`} autoComplete="additional-name" {...field('middleName')} />
      </Row>
      <TextField label={t('auth.register.lastName')} autoComplete="family-name" {...field('lastName')} />
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
        <RegionFields
          countries={countries}
          countryCode={values.countryCode}
          states={statesOfProfileCountry(snapshot.context)}
          loading={snapshot.matches({ countries: 'loading' })}
          unavailable={snapshot.matches({ countries: 'unavailable' })}
          field={field}
          retry={() => actor.send({ type: 'COUNTRIES.RETRY' })}
        />
      </Row>
      <Row>
        <TextField label={t('auth.register.city')} autoComplete="address-level2" {...field('city')} />
        <TextField label={t('auth.register.zipCode')} autoComplete="postal-code" inputMode="numeric" {...field('zipCode')} />
      </Row>
      <Actions>
        <Button type="submit" disabled={saving || done} aria-busy={saving}>
          {saving ? t('profile.basicInformation.saving') : t('profile.basicInformation.submit')}
        </Button>
      </Actions>
    </Form>
  );
}
