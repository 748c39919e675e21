import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../src/api/schema.d.ts';
import type { UserRow } from '../domain/users.ts';

/** Handlers are keyed by the operationIds of openapi.yaml; their types come from the generated schema. */
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type RequestBody<O extends OperationId> = operations[O] extends { requestBody: infer R }
  ? JsonContent<NonNullable<R>>
  : undefined;
export type QueryOf<O extends OperationId> = operations[O]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : Record<string, never>;
export type ParamsOf<O extends OperationId> = operations[O]['parameters'] extends { path?: infer P }
  ? NonNullable<P>
  : Record<string, never>;

type SuccessResponses<O extends OperationId> = operations[O]['responses'] extends { 200: infer R } ? R : never;
/** What a JSON handler returns: the `data` of its success envelope. */
export type ResponseData<O extends OperationId> = JsonContent<SuccessResponses<O>> extends { data: infer D } ? D : never;

export interface Auth {
  userId: number;
  sessionId: string;
  user: UserRow;
}

export interface HandlerInput<O extends OperationId> {
  body: RequestBody<O>;
  query: QueryOf<O>;
  params: ParamsOf<O>;
  /** The signed-in player; null only on operations where signing in is optional. */
  auth: Auth | null;
  ip: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

export type JsonHandler<O extends OperationId> = (input: HandlerInput<O>) => Promise<ResponseData<O>>;

/** For operations whose success is not a JSON envelope (images): they send the reply themselves. */
export type RawHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export type JsonHandlers = { [O in OperationId]?: JsonHandler<O> };
export type RawHandlers = { [O in OperationId]?: RawHandler };

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
    /** The JSON body as received (payment webhooks are signed over these exact bytes); null without one. */
    rawBody: string | null;
  }
}
