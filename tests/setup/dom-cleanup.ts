import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Unmounts what each test rendered. A setup file runs again for every test file, also where test files
// share a worker (isolate: false) and the helpers they import are evaluated only once; an afterEach in a
// helper module would be registered for the first of them alone.
afterEach(() => {
  cleanup();
});
