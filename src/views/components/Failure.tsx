import { errorMessageKey } from '../../api/errors.ts';
import type { ErrorCode } from '../../machines/effects.ts';
import { useT } from '../i18n-context.ts';
import { Button } from './Button.tsx';
import { FormError } from './Form.tsx';

/** A load that failed: its SPEC §8 message (or the default one) read out as an alert, and Retry. */
export function Failure({ code, onRetry }: { code: ErrorCode | null; onRetry: () => void }) {
  const { t } = useT();
  return (
    <>
      <FormError role="alert">{t(errorMessageKey(code, 'default'))}</FormError>
      <Button type="button" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </>
  );
}
