import { Readable, Transform } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  FORWARDING_PREFIXES,
  SERVICE_ENDPOINTS,
  endpointPath,
} from "../../../src/http/serviceEndpoints";
import type { ServiceKeyHeader } from "../forwardedHeaders";
import { budgetRefusalAnswer } from "./budgets/budgetRefusalAnswer";
import { gatewayMetrics } from "./gatewayMetrics";
import { migrate } from "./ledger/migrations";
import { openDatabase } from "./ledger/openDatabase";
import { UsageLedger } from "./ledger/UsageLedger";
import type { OrganisationOptions } from "./OrganisationOptions";
import { organisationRoutes } from "./organisationRoutes";
import { parseBudgets, type Budgets } from "./budgets/Budgets";
import { parseGroupsFile } from "./signIn/parseGroupsFile";
import { redactKeyStream } from "./key/redactKeyStream";
import { runsOfRequest } from "./budgets/runsOfRequest";
import type { SignedInUser } from "./signIn/SignedInUser";
import { openSpellKey } from "./key/spellKeySource";
import { UserTokenError, userTokenVerifier } from "./signIn/verifyUserToken";
import { WatchedFile } from "./WatchedFile";

/** The header a client names a call with, the same on its retries (see `SpellClientOptions.idempotencyKeys`). */
const REQUEST_KEY_HEADER = "idempotency-key";
/** Most of an answer read for its run id; a start's answer is small, a wait-mode one may not be. */
const ANSWER_PEEK_BYTES = 64 * 1024;
const DAY_MS = 86_400_000;

/** What the organisation mode knows about one forwarded call. */
interface CallState {
  user: SignedInUser;
  /** The organisation's key, as `forward` sends it to the service (`headersToService`). */
  serviceKey: ServiceKeyHeader;
  /**
   * The service's status when it refused the organisation's key (set by `forward`, which then
   * answers a 502 `organisation_key_refused`): what the charge is settled by.
   */
  keyRefusedStatus?: number;
  charge?: {
    ledgerId: string;
    endpoint: "start" | "bulkStart";
    runs: number;
    answer?: () => Buffer;
  };
}

/** What the command (SIGHUP) and the specs reach of a running organisation mode. */
export interface OrganisationHandles {
  ledger: UsageLedger;
  /** Reads the key, budgets and groups files again. */
  reload: () => void;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the organisation mode on forwarded calls. */
    organisationCall?: CallState;
  }
  interface FastifyInstance {
    /** Set in organisation mode. */
    organisation?: OrganisationHandles;
  }
}

/** Each forwarded path (`/spell-api/spells/start`, …) and its endpoint, from the endpoints table. */
const FORWARDED_ENDPOINTS: ReadonlyMap<string, keyof typeof SERVICE_ENDPOINTS> = new Map(
  (Object.keys(SERVICE_ENDPOINTS) as (keyof typeof SERVICE_ENDPOINTS)[]).map((endpoint) => [
    `${FORWARDING_PREFIXES[SERVICE_ENDPOINTS[endpoint].host]}${endpointPath(endpoint)}`,
    endpoint,
  ])
);

/**
 * Turns the add-in server into the organisation's gateway (call before `listen`, before the
 * forwarded routes' hooks; the server's `forward` sends `request.organisationCall.serviceKey`):
 * every forwarded call needs a valid user token (else a JSON 401 whose
 * `code` the add-in turns into "sign in again"); the user's `Authorization` is replaced by the
 * organisation's Spell key; a start or bulkStart is charged to the budgets before it is forwarded
 * (refused with a JSON 403 saying which limit and when it resets), recorded on the ledger with the
 * service's answer, and refunded when the service surely started nothing (4xx except 408, 503).
 * A service's 401 (it refused the organisation's key) reaches the browser as a JSON 502
 * `organisation_key_refused` (not "sign in again"), logged as an error and counted.
 * Adds `/org/config`, `/org/dev-token` (development), `/admin`, `/metrics`.
 *
 * ```
 * browser ── Bearer <user token> ──▶ verify ─▶ charge (SQL, row locks) ─▶ service (Bearer <org key>)
 *                                      │401          │403 limit / kill switch
 * ```
 *
 * ## Example
 * ```ts
 * const app = Fastify();
 * const organisation = await installOrganisationMode(app, options);
 * ```
 *
 * @param app The add-in server.
 * @param options The organisation mode's settings.
 * @param env Where an environment-held key is read.
 * @return Handles for the command (reload on SIGHUP) and the specs.
 */
export async function installOrganisationMode(
  app: FastifyInstance,
  options: OrganisationOptions,
  env: NodeJS.ProcessEnv = process.env
): Promise<OrganisationHandles> {
  const logRefusedFile = (error: Error) =>
    app.log.error(
      { error: error.message },
      "organisation: a changed file was refused, the last good one stays"
    );
  const spellKey = openSpellKey(options.spellKey, env, logRefusedFile);
  const budgets = options.budgetsFile
    ? new WatchedFile(
        options.budgetsFile,
        (text) => parseBudgets(text, options.budgetsFile!),
        logRefusedFile
      )
    : undefined;
  const groups = options.groupsFile
    ? new WatchedFile(
        options.groupsFile,
        (text) => parseGroupsFile(text, options.groupsFile!),
        logRefusedFile
      )
    : undefined;
  const verify = userTokenVerifier(options.signIn);
  const ownDatabase = typeof options.database === "string";
  const database =
    typeof options.database === "string" ? await openDatabase(options.database) : options.database;
  await migrate(database);
  const ledger = new UsageLedger(database);
  const retentionDays = options.retentionDays ?? 400;
  const metrics = gatewayMetrics();
  const currentBudgets = (): Budgets => budgets?.current ?? {};
  const groupsOf = (user: SignedInUser) =>
    groups?.current.get(user.name.toLowerCase()) ??
    groups?.current.get(user.id.toLowerCase()) ??
    [];
  const keyHeader = options.keyHeader ?? "authorization";

  const prune = () =>
    ledger.prune(retentionDays).then(
      (deleted) =>
        deleted > 0 && app.log.info({ deleted, retentionDays }, "ledger: old rows deleted"),
      (error: unknown) => app.log.error({ error: String(error) }, "ledger: pruning failed")
    );
  await prune();
  const pruning = setInterval(prune, DAY_MS);
  pruning.unref();

  /** The signed-in user of a request, or a 401 answer sent (undefined). */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    try {
      if (!match) throw new UserTokenError("sign_in_required", "Sign in to use Spell Run.");
      return await verify(match[1]!, groupsOf);
    } catch (error) {
      const refusal =
        error instanceof UserTokenError
          ? error
          : new UserTokenError(
              "token_invalid",
              "Your sign-in could not be checked: sign in again."
            );
      if (!(error instanceof UserTokenError)) {
        app.log.error({ error: String(error) }, "sign-in: the token check failed");
      }
      request.log.info({ code: refusal.code }, "sign-in refused");
      await reply
        .code(401)
        .header("www-authenticate", 'Bearer error="invalid_token"')
        .send({ error: "Unauthorized", code: refusal.code, message: refusal.message });
      return undefined;
    }
  };

  app.addHook("preHandler", async (request, reply) => {
    const forwarded = FORWARDED_ENDPOINTS.get(request.url.split("?")[0]!);
    if (!forwarded) return;
    const user = await signedIn(request, reply);
    if (!user) return reply;
    // What the browser sent for a key or a request name is never forwarded (headersToService):
    // the key is the organisation's.
    const key = spellKey.current();
    const call: CallState = {
      user,
      serviceKey:
        keyHeader === "x-api-key"
          ? { name: "x-api-key", value: key }
          : { name: "authorization", value: `Bearer ${key}` },
    };
    request.organisationCall = call;
    const requestKey = headerText(request.headers[REQUEST_KEY_HEADER]);

    // Charged: the endpoints that start runs (1 per start, the inputs of a bulkStart).
    if (forwarded !== "start" && forwarded !== "bulkStart") return;
    const endpoint = forwarded;
    const runs = runsOfRequest(endpoint, request.body);
    if ("problem" in runs) {
      return reply
        .code(400)
        .send({ error: "Bad Request", code: "not_chargeable", message: runs.problem });
    }
    const outcome = await ledger.charge(
      {
        user,
        endpoint,
        spellId: runs.spellId,
        runs: runs.runs,
        ...(requestKey ? { requestKey } : {}),
      },
      currentBudgets()
    );
    if (outcome.kind === "refused") {
      metrics.runsRefused.inc({ reason: outcome.refusal.reason }, runs.runs);
      request.log.info(
        {
          user: user.name,
          endpoint,
          spellId: runs.spellId,
          runs: runs.runs,
          refusal: outcome.refusal.reason,
        },
        "runs refused"
      );
      const answer = budgetRefusalAnswer(outcome.refusal);
      return reply.code(answer.statusCode).send(answer);
    }
    request.log.info(
      {
        user: user.name,
        endpoint,
        spellId: runs.spellId,
        runs: runs.runs,
        ledgerId: outcome.ledgerId,
      },
      "runs charged"
    );
    metrics.runsStarted.inc({ endpoint }, runs.runs);
    call.charge = { ledgerId: outcome.ledgerId, endpoint, runs: runs.runs };
  });

  app.addHook("onSend", async (request, _reply, payload) => {
    if (!request.organisationCall) return payload;
    // A service echoing the key (an error body) must not hand it to the browser.
    if (payload instanceof Readable) {
      const redacted = redactKeyStream(spellKey.current());
      payload.on("error", (error) => redacted.destroy(error));
      payload = payload.pipe(redacted);
    } else if (typeof payload === "string" || Buffer.isBuffer(payload)) {
      payload = payload
        .toString()
        .split(spellKey.current())
        .join("*".repeat(spellKey.current().length));
    }
    const charge = request.organisationCall.charge;
    if (!charge) return payload;
    if (payload instanceof Readable) {
      const seen: Buffer[] = [];
      let size = 0;
      // Recorded as the bytes pass (a 'data' listener would start the flow before fastify pipes).
      const copy = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (size < ANSWER_PEEK_BYTES) {
            seen.push(chunk);
            size += chunk.length;
          }
          done(null, chunk);
        },
      });
      payload.on("error", (error) => copy.destroy(error));
      charge.answer = () => Buffer.concat(seen);
      return payload.pipe(copy);
    }
    const bytes = Buffer.from(
      typeof payload === "string" || Buffer.isBuffer(payload) ? payload : ""
    );
    charge.answer = () => bytes;
    return payload;
  });

  app.addHook("onResponse", async (request, reply) => {
    const call = request.organisationCall;
    if (!call) return;
    // Refused key: the service's own status (a 401, surely nothing started) settles the charge.
    const status = call.keyRefusedStatus ?? reply.statusCode;
    if (call.keyRefusedStatus !== undefined) {
      metrics.keyRefused.inc({ status: String(call.keyRefusedStatus) });
      request.log.error(
        {
          code: "organisation_key_refused",
          upstreamStatus: call.keyRefusedStatus,
          keyHeader,
          user: call.user.name,
        },
        "organisation: the service refused the organisation's Spell key; check the key file or variable"
      );
    }
    if (status >= 500) metrics.upstreamErrors.inc({ status: String(status) });
    const charge = call.charge;
    if (!charge) return;
    try {
      if (startedNothing(status)) {
        await ledger.refund(charge.ledgerId, status);
        metrics.runsRefunded.inc({ endpoint: charge.endpoint }, charge.runs);
        request.log.info(
          { user: call.user.name, ledgerId: charge.ledgerId, status },
          "charge refunded"
        );
      } else {
        await ledger.settle(charge.ledgerId, status, runIdIn(charge.answer?.()));
      }
    } catch (error) {
      request.log.error(
        { error: String(error), ledgerId: charge.ledgerId },
        "ledger: recording the answer failed"
      );
    }
  });

  organisationRoutes(app, { options, ledger, metrics, signedIn, currentBudgets });

  app.addHook("onClose", async () => {
    clearInterval(pruning);
    spellKey.close();
    budgets?.close();
    groups?.close();
    if (ownDatabase) await database.close();
  });

  const handles: OrganisationHandles = {
    ledger,
    reload: () => {
      spellKey.reload();
      budgets?.reload();
      groups?.reload();
    },
  };
  app.decorate("organisation", handles);
  return handles;
}

/**
 * Whether the service's status says it started nothing, by the client's own retry rules: it
 * refused the call (4xx, except 408 which may come after the start) or was unavailable (503).
 */
function startedNothing(status: number): boolean {
  return (status >= 400 && status < 500 && status !== 408) || status === 503;
}

/** The run id (start) or bulk run id (bulkStart) an answer names. */
function runIdIn(answer: Buffer | undefined): string | undefined {
  if (!answer || answer.length === 0) return undefined;
  // Read from the text, not JSON.parse: a numeric id beyond 2^53 stays exact.
  const match = /"runId"\s*:\s*(?:"((?:[^"\\]|\\.){1,200})"|(-?\d{1,60}))/.exec(
    answer.toString("utf8")
  );
  return match ? (match[1] ?? match[2]) : undefined;
}

function headerText(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.length <= 200 ? text : undefined;
}
