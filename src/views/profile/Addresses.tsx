import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey, fieldMessages } from '../../api/errors.ts';
import { addressesMachine, statesOfAddressCountry, type Address } from '../../machines/addresses.machine.ts';
import { Button } from '../components/Button.tsx';
import { Failure } from '../components/Failure.tsx';
import { FormError, TextField } from '../components/Form.tsx';
import { Actions, Form, formBindings, Row } from '../dialogs/parts.tsx';
import { useT } from '../i18n-context.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';
import { RegionFields } from './fields.tsx';

/*
 * The profile's addresses (src/machines/addresses.machine.ts): the saved ones, each with Edit and
 * Remove (asked first); Add address opens the form, with the SPEC §5 rules beside each field.
 */

const List = styled('ul')`
  list-style: none;
  margin: 0 0 ${theme.space(4)};
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: ${theme.space(2)} ${theme.space(3)};
    padding: ${theme.space(3)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.small};
    background: ${theme.color.background};
  }
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .label {
    font-weight: 600;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
  }
  .confirm {
    flex-basis: 100%;
  }
`;

const FormTitle = styled('h3')`
  margin: 0 0 ${theme.space(3)};
  font-size: ${theme.font.size.body};
`;

/** One line for an address: street, city, state, zip code and country. */
export function addressLine(address: Pick<Address, 'address' | 'city' | 'stateCode' | 'zipCode' | 'countryCode'>): string {
  return `${address.address}, ${address.city}, ${address.stateCode} ${address.zipCode}, ${address.countryCode}`;
}

export function Addresses(_: ProfileSectionProps) {
  const { t } = useT();
  const actor = useFlow(addressesMachine);
  const snapshot = useSelector(actor, (s) => s);
  const { addresses, values, fieldErrors, errorCode, requestCodes, editingId, removingId, countries } = snapshot.context;
  const formTitle = useRef<HTMLHeadingElement>(null);
  const inForm = snapshot.matches({ list: 'editing' }) || snapshot.matches({ list: 'adding' }) || snapshot.matches({ list: 'updating' });
  const saving = snapshot.matches({ list: 'adding' }) || snapshot.matches({ list: 'updating' });
  const removing = snapshot.matches({ list: 'removing' });
  useEffect(() => {
    if (inForm) formTitle.current?.focus();
  }, [inForm]);

  if (snapshot.matches({ list: 'loading' })) {
    return (
      <p role="status" aria-busy="true">
        {t('states.loading')}
      </p>
    );
  }
  if (snapshot.matches({ list: 'failed' })) return <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />;

  if (inForm) {
    const { field, submit } = formBindings(actor.send, t, values, fieldErrors);
    return (
      <Form onSubmit={submit} noValidate>
        <FormTitle ref={formTitle} tabIndex={-1}>
          {editingId === null ? t('profile.addresses.newTitle') : t('profile.addresses.edit')}
        </FormTitle>
        {requestCodes.length > 0 ? (
          <FormError role="alert">{fieldMessages(t, requestCodes).join(' ')}</FormError>
        ) : errorCode ? (
          <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
        ) : null}
        <TextField
          label={`${t('profile.addresses.label')} (${t('common.optional')})`}
          placeholder={t('profile.addresses.labelPlaceholder')}
          {...field('label')}
        />
        <TextField label={t('auth.register.address')} autoComplete="street-address" {...field('address')} />
        <Row>
          <TextField label={t('auth.register.city')} autoComplete="address-level2" {...field('city')} />
          <TextField label={t('auth.register.zipCode')} autoComplete="postal-code" inputMode="numeric" {...field('zipCode')} />
        </Row>
        <Row>
          <RegionFields
            countries={countries}
            countryCode={values.countryCode}
            states={statesOfAddressCountry(snapshot.context)}
            loading={snapshot.matches({ countries: 'loading' })}
            unavailable={snapshot.matches({ countries: 'unavailable' })}
            field={field}
            retry={() => actor.send({ type: 'COUNTRIES.RETRY' })}
          />
        </Row>
        <Actions>
          <Button type="submit" disabled={saving} aria-busy={saving}>
            {saving ? t('profile.addresses.saving') : t('profile.addresses.save')}
          </Button>
          <Button type="button" variant="secondary" disabled={saving} onClick={() => actor.send({ type: 'CANCEL' })}>
            {t('common.cancel')}
          </Button>
        </Actions>
      </Form>
    );
  }

  return (
    <>
      {addresses.length === 0 ? (
        <p>{t('profile.addresses.empty')}</p>
      ) : (
        <List>
          {addresses.map((address) => {
            const line = addressLine(address);
            const asked = removingId === address.id;
            return (
              <li key={address.id}>
                <div>
                  {address.label ? <p className="label">{address.label}</p> : null}
                  <p>{line}</p>
                </div>
                {asked ? (
                  <div className="confirm" role="group" aria-label={t('profile.addresses.removeConfirm')}>
                    <p>{t('profile.addresses.removeConfirm')}</p>
                    <div className="actions">
                      <Button type="button" autoFocus disabled={removing} aria-busy={removing} onClick={() => actor.send({ type: 'CONFIRM' })}>
                        {removing ? t('profile.addresses.removing') : t('profile.addresses.confirmRemove')}
                      </Button>
                      <Button type="button" variant="secondary" disabled={removing} onClick={() => actor.send({ type: 'CANCEL' })}>
                        {t('common.cancel')}
                      </Button>
                    </div>
                  </div>
                ) : (
                  <div className="actions">
                    <Button
                      type="button"
                      variant="secondary"
                      aria-label={t('profile.addresses.editOf', { address: address.label ?? line })}
                      disabled={removingId !== null}
                      onClick={() => actor.send({ type: 'EDIT', addressId: address.id })}
                    >
                      {t('common.edit')}
                    </Button>
                    <Button
                      type="button"
                      variant="secondary"
                      aria-label={t('profile.addresses.removeOf', { address: address.label ?? line })}
                      disabled={removingId !== null}
                      onClick={() => actor.send({ type: 'REMOVE', addressId: address.id })}
                    >
                      {t('profile.addresses.remove')}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </List>
      )}
      <Button type="button" disabled={removingId !== null} onClick={() => actor.send({ type: 'ADD' })}>
        {t('profile.addresses.add')}
      </Button>
    </>
  );
}
