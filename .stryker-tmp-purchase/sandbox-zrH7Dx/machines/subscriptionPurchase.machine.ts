// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { assertEvent, assign, fromPromise, raise, sendParent, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { VERIFY_FALLBACK, createSubscription, verifySubscription } from '../src/api/subscriptions';
import type { CreateSubscriptionResponse, CurrentSubscription, SubscriptionPlan } from '../server/src/contract/subscriptions';
import { PAYMENT_FAILED, confirmCardPayment, type PaymentMethodInput } from '../src/payments/confirmPayment';
export const SUBSCRIPTION_SUCCESS_MESSAGE = stryMutAct_9fa48("0") ? "" : (stryCov_9fa48("0"), 'Subscription successful!');
export const SUBSCRIPTION_SUCCESS_MS = 3000;
export const PAYMENT_FALLBACK = stryMutAct_9fa48("1") ? "" : (stryCov_9fa48("1"), 'An error occurred');
export const purchaseRefusals = {
  inactivePlan: 'This plan is no longer available.',
  existingSubscription: 'You already have an active subscription.'
} as const;

/** SPEC §6: a subscription blocks a purchase unless it is set to cancel at period end. */
export function blocksPurchase(current: CurrentSubscription | null): boolean {
  if (stryMutAct_9fa48("2")) {
    {}
  } else {
    stryCov_9fa48("2");
    if (stryMutAct_9fa48("5") ? !current && ['canceled', 'incomplete', 'incomplete_expired'].includes(current.status) : stryMutAct_9fa48("4") ? false : stryMutAct_9fa48("3") ? true : (stryCov_9fa48("3", "4", "5"), (stryMutAct_9fa48("6") ? current : (stryCov_9fa48("6"), !current)) || (stryMutAct_9fa48("7") ? [] : (stryCov_9fa48("7"), [stryMutAct_9fa48("8") ? "" : (stryCov_9fa48("8"), 'canceled'), stryMutAct_9fa48("9") ? "" : (stryCov_9fa48("9"), 'incomplete'), stryMutAct_9fa48("10") ? "" : (stryCov_9fa48("10"), 'incomplete_expired')])).includes(current.status))) return stryMutAct_9fa48("11") ? true : (stryCov_9fa48("11"), false);
    return stryMutAct_9fa48("12") ? current.cancel_at_period_end : (stryCov_9fa48("12"), !current.cancel_at_period_end);
  }
}
export type SubscriptionPurchaseEvent = {
  type: 'plan.chosen';
  plan: SubscriptionPlan;
  current: CurrentSubscription | null;
} | {
  type: 'payment.submitted';
  method: PaymentMethodInput;
} | {
  type: 'payment.dismissed';
};
type PurchaseContext = {
  plan: SubscriptionPlan | null;
  clientSecret: string | null;
  subscriptionId: string | null;
  error: string | null;
};
export const subscriptionPurchaseMachine = setup(stryMutAct_9fa48("13") ? {} : (stryCov_9fa48("13"), {
  types: {
    context: {} as PurchaseContext,
    events: {} as SubscriptionPurchaseEvent
  },
  actors: stryMutAct_9fa48("15") ? {} : (stryCov_9fa48("15"), {
    createSubscription: fromPromise<CreateSubscriptionResponse, {
      priceId: string;
    }>(stryMutAct_9fa48("16") ? () => undefined : (stryCov_9fa48("16"), ({
      input,
      signal
    }) => createSubscription(input.priceId, stryMutAct_9fa48("17") ? {} : (stryCov_9fa48("17"), {
      signal
    })))),
    confirmPayment: fromPromise<{
      status: string;
    }, {
      clientSecret: string;
      method: PaymentMethodInput;
    }>(stryMutAct_9fa48("18") ? () => undefined : (stryCov_9fa48("18"), ({
      input
    }) => confirmCardPayment(input.clientSecret, input.method))),
    verifySubscription: fromPromise<void, {
      subscriptionId: string;
    }>(stryMutAct_9fa48("19") ? () => undefined : (stryCov_9fa48("19"), ({
      input,
      signal
    }) => verifySubscription(input.subscriptionId, stryMutAct_9fa48("20") ? {} : (stryCov_9fa48("20"), {
      signal
    }))))
  }),
  actions: stryMutAct_9fa48("21") ? {} : (stryCov_9fa48("21"), {
    /** Tells the Subscriptions tab, its parent, to reload the profile and the current subscription. */
    reloadSubscription: sendParent(stryMutAct_9fa48("22") ? {} : (stryCov_9fa48("22"), {
      type: stryMutAct_9fa48("23") ? "" : (stryCov_9fa48("23"), 'subscription.changed')
    }))
  }),
  delays: stryMutAct_9fa48("24") ? {} : (stryCov_9fa48("24"), {
    successMessage: SUBSCRIPTION_SUCCESS_MS
  }),
  guards: stryMutAct_9fa48("25") ? {} : (stryCov_9fa48("25"), {
    noPaymentDue: stryMutAct_9fa48("26") ? () => undefined : (stryCov_9fa48("26"), (_, created: CreateSubscriptionResponse) => stryMutAct_9fa48("29") ? created.clientSecret !== null : stryMutAct_9fa48("28") ? false : stryMutAct_9fa48("27") ? true : (stryCov_9fa48("27", "28", "29"), created.clientSecret === null)),
    planInactive: ({
      event
    }) => {
      if (stryMutAct_9fa48("30")) {
        {}
      } else {
        stryCov_9fa48("30");
        assertEvent(event, stryMutAct_9fa48("31") ? "" : (stryCov_9fa48("31"), 'plan.chosen'));
        return stryMutAct_9fa48("32") ? event.plan.is_active : (stryCov_9fa48("32"), !event.plan.is_active);
      }
    },
    alreadySubscribed: ({
      event
    }) => {
      if (stryMutAct_9fa48("33")) {
        {}
      } else {
        stryCov_9fa48("33");
        assertEvent(event, stryMutAct_9fa48("34") ? "" : (stryCov_9fa48("34"), 'plan.chosen'));
        return blocksPurchase(event.current);
      }
    }
  })
})).createMachine(stryMutAct_9fa48("35") ? {} : (stryCov_9fa48("35"), {
  id: stryMutAct_9fa48("36") ? "" : (stryCov_9fa48("36"), 'subscriptionPurchase'),
  context: stryMutAct_9fa48("37") ? {} : (stryCov_9fa48("37"), {
    plan: null,
    clientSecret: null,
    subscriptionId: null,
    error: null
  }),
  initial: stryMutAct_9fa48("38") ? "" : (stryCov_9fa48("38"), 'idle'),
  states: stryMutAct_9fa48("39") ? {} : (stryCov_9fa48("39"), {
    idle: stryMutAct_9fa48("40") ? {} : (stryCov_9fa48("40"), {
      on: stryMutAct_9fa48("41") ? {} : (stryCov_9fa48("41"), {
        'plan.chosen': stryMutAct_9fa48("42") ? [] : (stryCov_9fa48("42"), [stryMutAct_9fa48("43") ? {} : (stryCov_9fa48("43"), {
          guard: stryMutAct_9fa48("44") ? "" : (stryCov_9fa48("44"), 'planInactive'),
          actions: assign(stryMutAct_9fa48("45") ? {} : (stryCov_9fa48("45"), {
            error: purchaseRefusals.inactivePlan
          }))
        }), stryMutAct_9fa48("46") ? {} : (stryCov_9fa48("46"), {
          guard: stryMutAct_9fa48("47") ? "" : (stryCov_9fa48("47"), 'alreadySubscribed'),
          actions: assign(stryMutAct_9fa48("48") ? {} : (stryCov_9fa48("48"), {
            error: purchaseRefusals.existingSubscription
          }))
        }), stryMutAct_9fa48("49") ? {} : (stryCov_9fa48("49"), {
          target: stryMutAct_9fa48("50") ? "" : (stryCov_9fa48("50"), 'creating'),
          actions: assign(stryMutAct_9fa48("51") ? {} : (stryCov_9fa48("51"), {
            plan: stryMutAct_9fa48("52") ? () => undefined : (stryCov_9fa48("52"), ({
              event
            }) => event.plan),
            error: null
          }))
        })])
      })
    }),
    creating: stryMutAct_9fa48("53") ? {} : (stryCov_9fa48("53"), {
      tags: stryMutAct_9fa48("54") ? [] : (stryCov_9fa48("54"), [stryMutAct_9fa48("55") ? "" : (stryCov_9fa48("55"), 'busy')]),
      invoke: stryMutAct_9fa48("56") ? {} : (stryCov_9fa48("56"), {
        id: stryMutAct_9fa48("57") ? "" : (stryCov_9fa48("57"), 'createSubscription'),
        src: stryMutAct_9fa48("58") ? "" : (stryCov_9fa48("58"), 'createSubscription'),
        input: stryMutAct_9fa48("59") ? () => undefined : (stryCov_9fa48("59"), ({
          context
        }) => stryMutAct_9fa48("60") ? {} : (stryCov_9fa48("60"), {
          priceId: stryMutAct_9fa48("61") ? context.plan?.stripe_price_id && '' : (stryCov_9fa48("61"), (stryMutAct_9fa48("62") ? context.plan.stripe_price_id : (stryCov_9fa48("62"), context.plan?.stripe_price_id)) ?? (stryMutAct_9fa48("63") ? "Stryker was here!" : (stryCov_9fa48("63"), '')))
        })),
        onDone: stryMutAct_9fa48("64") ? [] : (stryCov_9fa48("64"), [stryMutAct_9fa48("65") ? {} : (stryCov_9fa48("65"), {
          // The provider took no first payment (e.g. a free trial): nothing to pay, only to verify.
          guard: stryMutAct_9fa48("66") ? {} : (stryCov_9fa48("66"), {
            type: stryMutAct_9fa48("67") ? "" : (stryCov_9fa48("67"), 'noPaymentDue'),
            params: stryMutAct_9fa48("68") ? () => undefined : (stryCov_9fa48("68"), ({
              event
            }) => event.output)
          }),
          target: stryMutAct_9fa48("69") ? "" : (stryCov_9fa48("69"), 'verifying'),
          actions: assign(stryMutAct_9fa48("70") ? {} : (stryCov_9fa48("70"), {
            subscriptionId: stryMutAct_9fa48("71") ? () => undefined : (stryCov_9fa48("71"), ({
              event
            }) => event.output.subscriptionId)
          }))
        }), stryMutAct_9fa48("72") ? {} : (stryCov_9fa48("72"), {
          target: stryMutAct_9fa48("73") ? "" : (stryCov_9fa48("73"), 'paying'),
          actions: assign(stryMutAct_9fa48("74") ? {} : (stryCov_9fa48("74"), {
            clientSecret: stryMutAct_9fa48("75") ? () => undefined : (stryCov_9fa48("75"), ({
              event
            }) => event.output.clientSecret),
            subscriptionId: stryMutAct_9fa48("76") ? () => undefined : (stryCov_9fa48("76"), ({
              event
            }) => event.output.subscriptionId)
          }))
        })]),
        onError: stryMutAct_9fa48("77") ? {} : (stryCov_9fa48("77"), {
          target: stryMutAct_9fa48("78") ? "" : (stryCov_9fa48("78"), 'idle'),
          actions: assign(stryMutAct_9fa48("79") ? {} : (stryCov_9fa48("79"), {
            error: stryMutAct_9fa48("80") ? () => undefined : (stryCov_9fa48("80"), ({
              event
            }) => errorMessage(event.error, stryMutAct_9fa48("81") ? "" : (stryCov_9fa48("81"), 'Failed to initiate subscription: Failed to create subscription')))
          }))
        })
      })
    }),
    paying: stryMutAct_9fa48("82") ? {} : (stryCov_9fa48("82"), {
      tags: stryMutAct_9fa48("83") ? [] : (stryCov_9fa48("83"), [stryMutAct_9fa48("84") ? "" : (stryCov_9fa48("84"), 'dialog')]),
      on: stryMutAct_9fa48("85") ? {} : (stryCov_9fa48("85"), {
        'payment.submitted': stryMutAct_9fa48("86") ? "" : (stryCov_9fa48("86"), 'confirming'),
        'payment.dismissed': stryMutAct_9fa48("87") ? {} : (stryCov_9fa48("87"), {
          target: stryMutAct_9fa48("88") ? "" : (stryCov_9fa48("88"), 'idle'),
          actions: assign(stryMutAct_9fa48("89") ? {} : (stryCov_9fa48("89"), {
            clientSecret: null,
            subscriptionId: null
          }))
        })
      })
    }),
    confirming: stryMutAct_9fa48("90") ? {} : (stryCov_9fa48("90"), {
      tags: stryMutAct_9fa48("91") ? [] : (stryCov_9fa48("91"), [stryMutAct_9fa48("92") ? "" : (stryCov_9fa48("92"), 'dialog'), stryMutAct_9fa48("93") ? "" : (stryCov_9fa48("93"), 'busy')]),
      invoke: stryMutAct_9fa48("94") ? {} : (stryCov_9fa48("94"), {
        id: stryMutAct_9fa48("95") ? "" : (stryCov_9fa48("95"), 'confirmPayment'),
        src: stryMutAct_9fa48("96") ? "" : (stryCov_9fa48("96"), 'confirmPayment'),
        input: ({
          context,
          event
        }) => {
          if (stryMutAct_9fa48("97")) {
            {}
          } else {
            stryCov_9fa48("97");
            assertEvent(event, stryMutAct_9fa48("98") ? "" : (stryCov_9fa48("98"), 'payment.submitted'));
            return stryMutAct_9fa48("99") ? {} : (stryCov_9fa48("99"), {
              clientSecret: stryMutAct_9fa48("100") ? context.clientSecret && '' : (stryCov_9fa48("100"), context.clientSecret ?? (stryMutAct_9fa48("101") ? "Stryker was here!" : (stryCov_9fa48("101"), ''))),
              method: event.method
            });
          }
        },
        onDone: stryMutAct_9fa48("102") ? [] : (stryCov_9fa48("102"), [stryMutAct_9fa48("103") ? {} : (stryCov_9fa48("103"), {
          guard: stryMutAct_9fa48("104") ? () => undefined : (stryCov_9fa48("104"), ({
            event
          }) => stryMutAct_9fa48("107") ? event.output.status !== 'succeeded' : stryMutAct_9fa48("106") ? false : stryMutAct_9fa48("105") ? true : (stryCov_9fa48("105", "106", "107"), event.output.status === (stryMutAct_9fa48("108") ? "" : (stryCov_9fa48("108"), 'succeeded')))),
          target: stryMutAct_9fa48("109") ? "" : (stryCov_9fa48("109"), 'verifying')
        }), stryMutAct_9fa48("110") ? {} : (stryCov_9fa48("110"), {
          target: stryMutAct_9fa48("111") ? "" : (stryCov_9fa48("111"), 'idle'),
          actions: assign(stryMutAct_9fa48("112") ? {} : (stryCov_9fa48("112"), {
            error: PAYMENT_FAILED
          }))
        })]),
        onError: stryMutAct_9fa48("113") ? {} : (stryCov_9fa48("113"), {
          target: stryMutAct_9fa48("114") ? "" : (stryCov_9fa48("114"), 'idle'),
          actions: assign(stryMutAct_9fa48("115") ? {} : (stryCov_9fa48("115"), {
            error: stryMutAct_9fa48("116") ? () => undefined : (stryCov_9fa48("116"), ({
              event
            }) => errorMessage(event.error, PAYMENT_FALLBACK))
          }))
        })
      })
    }),
    verifying: stryMutAct_9fa48("117") ? {} : (stryCov_9fa48("117"), {
      tags: stryMutAct_9fa48("118") ? [] : (stryCov_9fa48("118"), [stryMutAct_9fa48("119") ? "" : (stryCov_9fa48("119"), 'dialog'), stryMutAct_9fa48("120") ? "" : (stryCov_9fa48("120"), 'busy')]),
      invoke: stryMutAct_9fa48("121") ? {} : (stryCov_9fa48("121"), {
        id: stryMutAct_9fa48("122") ? "" : (stryCov_9fa48("122"), 'verifySubscription'),
        src: stryMutAct_9fa48("123") ? "" : (stryCov_9fa48("123"), 'verifySubscription'),
        input: stryMutAct_9fa48("124") ? () => undefined : (stryCov_9fa48("124"), ({
          context
        }) => stryMutAct_9fa48("125") ? {} : (stryCov_9fa48("125"), {
          subscriptionId: stryMutAct_9fa48("126") ? context.subscriptionId && '' : (stryCov_9fa48("126"), context.subscriptionId ?? (stryMutAct_9fa48("127") ? "Stryker was here!" : (stryCov_9fa48("127"), '')))
        })),
        onDone: stryMutAct_9fa48("128") ? {} : (stryCov_9fa48("128"), {
          target: stryMutAct_9fa48("129") ? "" : (stryCov_9fa48("129"), 'succeeded'),
          actions: stryMutAct_9fa48("130") ? "" : (stryCov_9fa48("130"), 'reloadSubscription')
        }),
        onError: stryMutAct_9fa48("131") ? {} : (stryCov_9fa48("131"), {
          target: stryMutAct_9fa48("132") ? "" : (stryCov_9fa48("132"), 'idle'),
          actions: stryMutAct_9fa48("133") ? [] : (stryCov_9fa48("133"), [assign(stryMutAct_9fa48("134") ? {} : (stryCov_9fa48("134"), {
            error: stryMutAct_9fa48("135") ? () => undefined : (stryCov_9fa48("135"), ({
              event
            }) => errorMessage(event.error, VERIFY_FALLBACK))
          })), stryMutAct_9fa48("136") ? "" : (stryCov_9fa48("136"), 'reloadSubscription')])
        })
      })
    }),
    succeeded: stryMutAct_9fa48("137") ? {} : (stryCov_9fa48("137"), {
      tags: stryMutAct_9fa48("138") ? [] : (stryCov_9fa48("138"), [stryMutAct_9fa48("139") ? "" : (stryCov_9fa48("139"), 'success')]),
      after: stryMutAct_9fa48("140") ? {} : (stryCov_9fa48("140"), {
        successMessage: stryMutAct_9fa48("141") ? "" : (stryCov_9fa48("141"), 'idle')
      }),
      on: stryMutAct_9fa48("142") ? {} : (stryCov_9fa48("142"), {
        // Choosing again during the success message is handled as from idle.
        'plan.chosen': stryMutAct_9fa48("143") ? {} : (stryCov_9fa48("143"), {
          target: stryMutAct_9fa48("144") ? "" : (stryCov_9fa48("144"), 'idle'),
          actions: raise(stryMutAct_9fa48("145") ? () => undefined : (stryCov_9fa48("145"), ({
            event
          }) => event))
        })
      })
    })
  })
}));