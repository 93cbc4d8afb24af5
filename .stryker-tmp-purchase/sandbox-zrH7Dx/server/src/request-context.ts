// @ts-nocheck
import type { Context } from 'koa';

/** The member Strapi's auth puts on the context. */
export type AuthenticatedMember = { id: number };

/** Koa's context as Strapi hands it to controllers and route middlewares; `user` is set once auth passed. */
export type RequestContext = Context & { state: { user?: AuthenticatedMember } };

/** The context of a route whose auth guarantees a member. */
export type MemberContext = Context & { state: { user: AuthenticatedMember } };

export type NextMiddleware = () => Promise<unknown>;
