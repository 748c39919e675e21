import type { Country } from '../../machines/register.machine.ts';
import { Button } from '../components/Button.tsx';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { useT } from '../i18n-context.ts';

/*
 * What the profile's forms share: a field's props from a form flow's snapshot, and the country and state
 * pickers fed by get-countries (a country without a list of states takes a typed state code).
 */

export interface FieldProps {
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  errors: string[];
}

export function RegionFields({
  countries,
  countryCode,
  states,
  loading,
  unavailable,
  field,
  retry,
}: {
  countries: readonly Country[];
  countryCode: string;
  states: Country['states'];
  loading: boolean;
  unavailable: boolean;
  field: (name: 'countryCode' | 'stateCode') => FieldProps;
  retry: () => void;
}) {
  const { t } = useT();
  const chosen = countryCode !== '';
  const stateCode = field('stateCode').value;
  // A code the lists do not have (yet: they are loading) stays chosen, shown as its code.
  const unknownCountry = chosen && !countries.some((country) => country.code === countryCode);
  const unknownState = stateCode !== '' && !states.some((state) => state.code === stateCode);
  return (
    <>
      <SelectField label={t('auth.register.country')} autoComplete="country" disabled={loading || unavailable} aria-busy={loading} {...field('countryCode')}>
        <option value="">{loading ? t('states.loading') : t('auth.register.countryPlaceholder')}</option>
        {unknownCountry ? <option value={countryCode}>{countryCode}</option> : null}
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </SelectField>
      {chosen && states.length === 0 && !loading ? (
        <TextField label={t('auth.register.state')} autoComplete="address-level1" {...field('stateCode')} />
      ) : (
        <SelectField label={t('auth.register.state')} autoComplete="address-level1" disabled={!chosen || loading} {...field('stateCode')}>
          <option value="">{t('auth.register.statePlaceholder')}</option>
          {unknownState ? <option value={stateCode}>{stateCode}</option> : null}
          {states.map((state) => (
            <option key={state.code} value={state.code}>
              {state.name}
            </option>
          ))}
        </SelectField>
      )}
      {unavailable ? (
        <FormError role="alert">
          {t('auth.register.countriesUnavailable')}{' '}
          <Button type="button" variant="secondary" onClick={retry}>
            {t('common.retry')}
          </Button>
        </FormError>
      ) : null}
    </>
  );
}
