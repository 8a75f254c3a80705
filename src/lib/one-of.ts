// A request field that takes one of a list of strings. `t.Union(list.map((v) => t.Literal(v)))` over
// a list typed as an array (not a tuple literal) validates right but types as `never` in the route's
// body and query, so a typed client (ui/client.ts) could not send it. The same schema, typed as the
// list's member. (Not t.UnionEnum: it gives an optional field its first value as a default.)
import { t } from 'elysia'

type OneOf<V extends string> = ReturnType<typeof t.Union<[ReturnType<typeof t.Literal<V>>]>>

export const oneOf = <V extends string>(values: readonly V[]) => t.Union(values.map((v) => t.Literal(v))) as unknown as OneOf<V>
