// Transitional: the composition root is src/views/wiring.ts; this name goes once every view imports it from there.
export { useWiring as useServices } from './wiring.ts';
