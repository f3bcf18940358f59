// Phase E of npm run bench:bids: bidders on one hot auction sending varied amounts with proxy maximums (ADR 0055).
// Every request carries max_amount, so none is refused before the auction's row lock (bids.service refuses early only
// what a plain bid's stale price already rules out): each 201 or 400 is a decision taken under the lock.
import { acceptedBid, clock, percentile, stormRequest, stormTally, wait } from './bid-storm.mjs';
import { bidIncrement, minimumNextBid } from './build.mjs';

/** `amount` raised by `steps` D6 increments, each taken at the price it is added to. */
export function plusIncrements(amount, steps) {
  let value = amount;
  for (let i = 0; i < steps; i += 1) value += bidIncrement(value);
  return value;
}

const randomInt = (max) => Math.floor(Math.random() * (max + 1));
const dollars = (text) => Number(text.replace(/,/g, ''));

/**
 * One proxy storm: each bidder ({token, id}) bids on `listingId` for `seconds`: the minimum it knows plus 0 to
 * `maxSteps` increments, with a maximum 0 to `maxSteps * 2` increments above that; a bidder told it leads raises its
 * maximum instead (the current price as amount, a higher max_amount). It learns from every answer: 201 current_bid and
 * leading, 400 'at least $X' (outbid) or 'already $X' (its maximum). A 503 with Retry-After is counted apart and waited out.
 */
export async function proxyStormPhase(api, { bidders, listingId, startingPrice, seconds, maxSteps = 10 }) {
  const decided = [];
  const accepted = [];
  const tally = stormTally();
  let refused = 0;
  let raises = 0;
  const started = clock();
  const deadline = started + seconds * 1000;
  await Promise.all(
    bidders.map(async ({ token, id: bidderId }) => {
      let minimum = startingPrice;
      let price = null;
      let leading = false;
      let myMaximum = 0;
      while (clock() < deadline) {
        const raise = leading && price !== null;
        const amount = raise ? price : plusIncrements(minimum, randomInt(maxSteps));
        const maxAmount = raise ? plusIncrements(Math.max(myMaximum, amount), 1 + randomInt(maxSteps)) : plusIncrements(amount, randomInt(maxSteps * 2));
        if (raise) raises += 1;
        const sent = await stormRequest(api, { listing_id: listingId, amount, max_amount: maxAmount }, token, tally);
        if (!sent || sent.again) continue;
        const { answer, sentAt, answeredAt, detail } = sent;
        if (answer.status === 201) {
          decided.push(answeredAt - sentAt);
          accepted.push(acceptedBid(answer, { listingId, bidderId, amount, maxAmount, sentAt, answeredAt }));
          price = answer.body.current_bid;
          minimum = minimumNextBid(startingPrice, price);
          leading = answer.body.leading;
          myMaximum = answer.body.max_amount ?? myMaximum;
          continue;
        }
        const atLeast = typeof detail === 'string' ? /at least \$([\d,]+)/.exec(detail) : null;
        const already = typeof detail === 'string' ? /already \$([\d,]+)/.exec(detail) : null;
        if (answer.status === 400 && (atLeast || already)) {
          decided.push(answeredAt - sentAt);
          refused += 1;
          if (atLeast) {
            minimum = dollars(atLeast[1]);
            leading = false;
          } else myMaximum = dollars(already[1]);
          continue;
        }
        // Anything else is a refusal the storm did not expect: counted under its reason, and the bidder backs off.
        await wait(100);
      }
    }),
  );
  const elapsed = (clock() - started) / 1000;
  decided.sort((a, b) => a - b);
  const { reasons, shed, serverErrors, networkErrors } = tally;
  const requests = decided.length + shed + serverErrors + networkErrors + Object.entries(reasons).filter(([k]) => /^4/.test(k) && !/at least|already/.test(k)).reduce((n, [, c]) => n + c, 0);
  return {
    seconds: elapsed,
    requests,
    accepted,
    refused,
    raises,
    decidedPerSecond: decided.length / elapsed,
    acceptedPerSecond: accepted.length / elapsed,
    requestsPerSecond: requests / elapsed,
    p50: percentile(decided, 50),
    p99: percentile(decided, 99),
    automaticAnswers: accepted.filter((bid) => !bid.leading).length,
    reasons,
    shed,
    serverErrors,
    networkErrors,
  };
}
