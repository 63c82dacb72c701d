import { parseCliOptions } from "../../emulator/parseCliOptions.js";

describe("parseCliOptions", () => {
  it("should default to ports 3001 / 3002 and no faults", () => {
    expect(parseCliOptions([], {})).toEqual({
      help: false,
      log: false,
      options: { port: 3001, pollPort: 3002, faults: {} },
    });
  });

  it("should turn the request log on with --log or SPELL_EMULATOR_LOG", () => {
    expect(parseCliOptions(["--log"], {}).log).toBeTrue();
    expect(parseCliOptions([], { SPELL_EMULATOR_LOG: "1" }).log).toBeTrue();
  });

  it("should read every fault flag", () => {
    const { options } = parseCliOptions(
      [
        "--rate-429",
        "0.1",
        "--retry-after",
        "2",
        "--rate-503",
        "0.2",
        "--rate-500-reads",
        "0.3",
        "--latency",
        "40",
        "--drop-rate",
        "0.05",
        "--drop-phase",
        "before",
        "--endpoints",
        "start,getRun",
        "--run-id-type",
        "number",
        "--lazy-bulk",
        "--extra-fields",
        "--seed",
        "9",
      ],
      {}
    );
    expect(options.faults).toEqual({
      rate429: 0.1,
      retryAfterSeconds: 2,
      rate503: 0.2,
      rate500OnReads: 0.3,
      latencyMs: 40,
      dropRate: 0.05,
      dropPhase: "before",
      endpoints: ["start", "getRun"],
      runIdType: "number",
      lazyBulk: true,
      extraFields: true,
      seed: 9,
    });
  });

  it("should read environment variables, flags winning", () => {
    const { options } = parseCliOptions(["--port", "4001"], {
      SPELL_EMULATOR_PORT: "5001",
      SPELL_EMULATOR_POLL_PORT: "5002",
      SPELL_EMULATOR_API_KEY: "k",
      SPELL_EMULATOR_SPELLS: "/tmp/spells.json",
      SPELL_EMULATOR_TIME_SCALE: "0.5",
      SPELL_EMULATOR_LAZY_BULK_RUNS_PER_POLL: "10",
      SPELL_EMULATOR_EXTRA_FIELDS: "1",
    });
    expect(options).toEqual({
      port: 4001,
      pollPort: 5002,
      apiKey: "k",
      spellsFile: "/tmp/spells.json",
      timeScale: 0.5,
      faults: { lazyBulk: { runsPerPoll: 10 }, extraFields: true },
    });
  });

  it("should reject bad values and unknown flags", () => {
    expect(() => parseCliOptions(["--rate-503", "2"], {})).toThrowError(/--rate-503/);
    expect(() => parseCliOptions(["--port", "x"], {})).toThrowError(/--port/);
    expect(() => parseCliOptions(["--run-id-type", "uuid"], {})).toThrowError(/string, number/);
    expect(() => parseCliOptions(["--endpoints", "start,nope"], {})).toThrowError(/nope/);
    expect(() => parseCliOptions(["--nope"], {})).toThrow();
  });
});
