// The fake Stripe's reading of stripe-node's form encoding (tests/fakes/stripe-form.ts).
import { expect, test } from 'bun:test'
import { parseStripeForm } from '../../fakes/stripe-form'

const cases: [string, string, unknown][] = [
  ['flat', 'a=1&b=two', { a: '1', b: 'two' }],
  ['nested object', 'recurring[interval]=month&metadata[dibs_plan]=gd', { recurring: { interval: 'month' }, metadata: { dibs_plan: 'gd' } }],
  [
    'indexed array of objects',
    'line_items[0][price]=p1&line_items[0][quantity]=1&line_items[1][price]=p2',
    { line_items: [{ price: 'p1', quantity: '1' }, { price: 'p2' }] },
  ],
  ['empty-bracket array', 'lookup_keys[]=a&lookup_keys[]=b', { lookup_keys: ['a', 'b'] }],
  ['indexed array of strings', 'expand[0]=data.product&expand[1]=x', { expand: ['data.product', 'x'] }],
  [
    'deep',
    'features[subscription_update][products][0][prices][0]=p&features[subscription_update][products][0][product]=prod',
    { features: { subscription_update: { products: [{ prices: ['p'], product: 'prod' }] } } },
  ],
  ['encoded', 'return_url=http%3A%2F%2Fx%2F%3Fsession_id%3D%7BCHECKOUT_SESSION_ID%7D', { return_url: 'http://x/?session_id={CHECKOUT_SESSION_ID}' }],
]
for (const [name, input, want] of cases) test(name, () => expect(parseStripeForm(input)).toEqual(want as never))
