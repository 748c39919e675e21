import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The lint rules that hold the direction of dependencies (eslint.config.js, ARCHITECTURE.md): each wrong
 * import below must fail `npm run lint`, each right one must pass, so the rules cannot rot unnoticed.
 */

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const refused: [file: string, code: string][] = [
  ['src/machines/bonus.machine.ts', "import { useState } from 'react';\nexport const x = useState;"],
  ['src/machines/bonus.machine.ts', "import toast from 'react-hot-toast';\nexport const x = toast;"],
  ['src/machines/bonus.machine.ts', "import { useFlow } from '../views/wiring.ts';\nexport const x = useFlow;"],
  ['src/machines/bonus.machine.ts', "import { en } from '../i18n/en.ts';\nexport const x = en;"],
  ['src/api/client.ts', "import { loginMachine } from '../machines/login.machine.ts';\nexport const x = loginMachine;"],
  ['src/rules/user.ts', "import { createApiClient } from '../api/client.ts';\nexport const x = createApiClient;"],
  ['src/i18n/index.ts', "import { Layout } from '../views/Layout.tsx';\nexport const x = Layout;"],
  ['src/views/screens/Bonus.tsx', "import { createApiClient } from '../../api/client.ts';\nexport const x = createApiClient;"],
  ['src/views/screens/Bonus.tsx', 'declare const m: { provide(x: unknown): unknown };\nexport const x = m.provide({});'],
  ['server/domain/auth.ts', "import { HTTP_STATUS } from '../http/status.ts';\nexport const x = HTTP_STATUS;"],
  ['server/db/demo.ts', "import { hashPassword } from '../domain/auth.ts';\nexport const x = hashPassword;"],
  ['server/providers/payment-simulator.ts', "import { isValidAddress } from '../domain/withdrawals.ts';\nexport const x = isValidAddress;"],
  ['server/providers/payment-simulator.ts', "import { buildApp } from '../http/handlers.ts';\nexport const x = buildApp;"],
  ['server/http/user.ts', "import { loginMachine } from '../../src/machines/login.machine.ts';\nexport const x = loginMachine;"],
];

const allowed: [file: string, code: string][] = [
  ['src/machines/bonus.machine.ts', "import { setup } from 'xstate';\nimport { parseAmount } from '../money.ts';\nexport const x = [setup, parseAmount];"],
  ['src/views/screens/Bonus.tsx', "import { useFlow } from '../wiring.ts';\nimport { loginMachine } from '../../machines/login.machine.ts';\nexport const x = [useFlow, loginMachine];"],
  ['src/views/wiring.ts', "import { createApiClient } from '../api/client.ts';\nexport const x = createApiClient;"],
  ['server/http/user.ts', "import { DomainError } from '../domain/errors.ts';\nexport const x = DomainError;"],
  ['server/domain/withdrawals.ts', "import { isValidAddress } from '../addresses.ts';\nimport { one } from '../db/db.ts';\nexport const x = [isValidAddress, one];"],
  ['server/providers/payment-simulator.ts', "import { segwitAddress } from '../addresses.ts';\nexport const x = segwitAddress;"],
];

describe('the direction of dependencies', () => {
  it.each(refused)('refuses in %s: %s', async (file, code) => {
    const found = await problems(file, code);
    expect(found.some((rule) => rule === 'no-restricted-imports' || rule === 'no-restricted-syntax'), found.join(', ')).toBe(true);
  });

  it.each(allowed)('allows in %s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
