// The stand-in Stripe.js the fake Stripe serves at GET /stripe.js (point STRIPE_JS_URL at it).
// `window.Stripe(publishableKey)` returns an object whose embedded checkout
// (`createEmbeddedCheckoutPage`, the name at the endive release train, and the older
// `initEmbeddedCheckout`) mounts a small visible form: heading 'Stand-in Stripe Checkout', the
// plan and amount, a 'Pay' button. Pay posts to the fake's /_fake/checkout_sessions/:id/complete
// (which completes the session as `completeCheckout` does and sends the webhooks), then calls
// onComplete(). The session id is the client secret before '_secret_'.
export function standInStripeJs(origin: string): string {
  return `(() => {
  const ORIGIN = ${JSON.stringify(origin)};
  const sessionOf = (secret) => String(secret).split('_secret_')[0];
  function Stripe(publishableKey) {
    if (typeof publishableKey !== 'string' || !publishableKey.startsWith('pk_')) throw new Error('Stand-in Stripe.js: a publishable key (pk_…) is required');
    const embedded = async (options) => {
      options = options || {};
      const secret = options.clientSecret || (options.fetchClientSecret ? await options.fetchClientSecret() : null);
      if (!secret) throw new Error('Stand-in Stripe.js: clientSecret or fetchClientSecret is required');
      const id = sessionOf(secret);
      const info = await fetch(ORIGIN + '/_fake/checkout_sessions/' + encodeURIComponent(id)).then((r) => r.json());
      if (info.error) throw new Error(info.error.message);
      let root = null;
      let destroyed = false;
      const render = (el) => {
        const box = document.createElement('div');
        box.setAttribute('data-testid', 'stand-in-stripe-checkout');
        box.style.cssText = 'border:1px solid #888;padding:1rem;border-radius:8px';
        const h = document.createElement('h3');
        h.textContent = 'Stand-in Stripe Checkout';
        const p = document.createElement('p');
        p.textContent = info.planName + ' — $' + (info.amount / 100).toFixed(2) + '/month';
        const status = document.createElement('p');
        status.setAttribute('role', 'status');
        const pay = document.createElement('button');
        pay.type = 'button';
        pay.textContent = 'Pay';
        pay.addEventListener('click', async () => {
          pay.disabled = true;
          status.textContent = 'Processing…';
          const res = await fetch(ORIGIN + '/_fake/checkout_sessions/' + encodeURIComponent(id) + '/complete', { method: 'POST' });
          if (!res.ok) {
            pay.disabled = false;
            status.textContent = 'Payment failed';
            return;
          }
          status.textContent = 'Paid';
          if (options.onComplete) options.onComplete();
        });
        box.append(h, p, pay, status);
        el.appendChild(box);
        return box;
      };
      return {
        mount(target) {
          if (destroyed) throw new Error('Stand-in Stripe.js: checkout was destroyed');
          const el = typeof target === 'string' ? document.querySelector(target) : target;
          if (!el) throw new Error('Stand-in Stripe.js: mount target not found');
          if (root) root.remove();
          root = render(el);
        },
        unmount() {
          if (root) root.remove();
          root = null;
        },
        destroy() {
          if (root) root.remove();
          root = null;
          destroyed = true;
        },
      };
    };
    return {
      createEmbeddedCheckoutPage: embedded,
      initEmbeddedCheckout: embedded,
      _registerWrapper() {},
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`
}
