import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { ModelIssueCodes } from '../../core/model/issue-reporter.js';
import { RunnerErrorCodes } from '../../runner/errors.js';
import { ApiErrors } from '../../server/api-error.js';

const doc = readFileSync('docs/errors.md', 'utf8');

it('docs/errors.md lists every engine error code, every runner error code and every model issue code', () => {
  for (const code of [...Object.values(ErrorCodes), ...Object.values(RunnerErrorCodes), ...Object.values(ModelIssueCodes)]) expect(doc).toContain(`\`${code}\``);
});

it('docs/errors.md lists every code of the HTTP APIs with its status, as the one table of server/api-error.ts gives it', () => {
  for (const [code, { status }] of Object.entries(ApiErrors)) expect(doc, code).toContain(`| \`${code}\` | ${status} |`);
});
