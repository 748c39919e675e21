import { configure } from '@testing-library/dom';

// findBy* and waitFor give up after 1 s by default, which a busy machine can take to render a screen.
// They return as soon as what they wait for is there, so a longer limit only slows a failing test.
configure({ asyncUtilTimeout: 5_000 });
