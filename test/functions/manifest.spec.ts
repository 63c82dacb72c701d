import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const requireFromRoot = createRequire(path.join(root, "package.json"));

/** xml2js's parsed shape: element name → list of children; `$` holds attributes; `_` text. */
interface XmlNode {
  $?: Record<string, string>;
  _?: string;
  [child: string]: XmlNode[] | Record<string, string> | string | undefined;
}

interface WebpackStats {
  hasErrors(): boolean;
  toString(options: string): string;
}
interface WebpackConfig {
  mode?: string;
  devtool?: unknown;
  output: { path: string };
  devServer: { static?: { directory: string; publicPath?: string }[] };
}

/** Every element under `node` (itself included) named `name`, at any depth. */
function findAll(node: unknown, name: string, found: XmlNode[] = []): XmlNode[] {
  if (!node || typeof node !== "object") return found;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === "$" || key === "_") continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (key === name) found.push(child as XmlNode);
      findAll(child, name, found);
    }
  }
  return found;
}

/** Every attribute value and text in the document that is an http(s) URL (not XML namespaces). */
function allUrls(node: unknown, urls: string[] = []): string[] {
  if (typeof node === "string") {
    if (/^https?:\/\//.test(node.trim())) urls.push(node.trim());
  } else if (Array.isArray(node)) {
    for (const item of node) allUrls(item, urls);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key !== "xmlns" && !key.startsWith("xmlns:")) allUrls(value, urls);
    }
  }
  return urls;
}

/**
 * manifest.xml: one shared runtime for the custom functions and the task pane, and every URL it
 * names served by the dev server (`npm run dev-server`: webpack's output plus its static folders).
 * The build runs here through webpack's Node API with the repo's webpack.config.js (development
 * mode, as the dev server runs it) into a temporary folder.
 */
describe("manifest.xml", () => {
  const manifestPath = path.join(root, "manifest.xml");
  let manifest: XmlNode;
  let outputDir: string;
  let devServerStatic: { directory: string; publicPath?: string }[];

  beforeAll(async () => {
    const xml2js = requireFromRoot("xml2js") as {
      parseStringPromise(xml: string): Promise<{ OfficeApp: XmlNode }>;
    };
    manifest = (await xml2js.parseStringPromise(readFileSync(manifestPath, "utf8"))).OfficeApp;

    outputDir = mkdtempSync(path.join(tmpdir(), "spellrun-addin-"));
    const webpack = requireFromRoot("webpack") as (
      config: WebpackConfig,
      done: (error: Error | null, stats?: WebpackStats) => void
    ) => void;
    const configFactory = requireFromRoot("./webpack.config.js") as (
      env: Record<string, unknown>,
      options: { mode: string }
    ) => Promise<WebpackConfig>;
    // WEBPACK_BUILD: a build, so the config does not load the https dev certificates.
    const config = await configFactory({ WEBPACK_BUILD: true }, { mode: "development" });
    config.mode = "development";
    config.devtool = false;
    config.output.path = outputDir;
    devServerStatic = config.devServer.static ?? [];
    const stats = await new Promise<WebpackStats | undefined>((resolve, reject) =>
      webpack(config, (error, result) => (error ? reject(error) : resolve(result)))
    );
    if (stats?.hasErrors()) throw new Error(stats.toString("errors-only"));
  }, 60_000);

  afterAll(() => {
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
  });

  /** The DefaultValue of the bt:Url / bt:String with this resid. */
  function resource(resid: string): string | undefined {
    const resources = [
      ...findAll(manifest, "bt:Url"),
      ...findAll(manifest, "bt:String"),
      ...findAll(manifest, "bt:Image"),
    ];
    return resources.find((item) => item.$?.id === resid)?.$?.DefaultValue;
  }

  it("should be read by office-addin-manifest as a Workbook task pane add-in", async () => {
    const { OfficeAddinManifest } = requireFromRoot(
      "office-addin-manifest"
    ) as typeof import("office-addin-manifest");
    const info = await OfficeAddinManifest.readManifestFile(manifestPath);
    expect(info.hosts).toEqual(["Workbook"]);
    expect(info.officeAppType).toBe("TaskPaneApp");
    expect(info.defaultSettings?.sourceLocation).toBe("https://localhost:3000/taskpane.html");
  });

  it("should require the SharedRuntime requirement set", () => {
    const sets = findAll(findAll(manifest, "Requirements")[0], "Set");
    expect(sets.map((set) => [set.$?.Name, set.$?.MinVersion])).toContain(["SharedRuntime", "1.1"]);
  });

  it("should declare one long-lived runtime on the task pane page", () => {
    const runtimes = findAll(manifest, "Runtime");
    expect(runtimes.length).toBe(1);
    expect(runtimes[0].$?.lifetime).toBe("long");
    expect(resource(runtimes[0].$?.resid as string)).toBe("https://localhost:3000/taskpane.html");
  });

  it("should host the custom functions in that runtime, namespace SPELL", () => {
    const points = findAll(manifest, "ExtensionPoint").filter(
      (point) => point.$?.["xsi:type"] === "CustomFunctions"
    );
    expect(points.length).toBe(1);
    const point = points[0];
    const resid = (element: string) =>
      findAll(findAll(point, element)[0], "SourceLocation")[0]?.$?.resid as string;
    expect(resource(resid("Page"))).toBe(
      resource(findAll(manifest, "Runtime")[0].$?.resid as string)
    );
    expect(resource(resid("Script"))).toBe("https://localhost:3000/functions.js");
    expect(resource(resid("Metadata"))).toBe("https://localhost:3000/functions.json");
    expect(resource(findAll(point, "Namespace")[0].$?.resid as string)).toBe("SPELL");
    const functionFile = findAll(manifest, "FunctionFile")[0];
    expect(resource(functionFile.$?.resid as string)).toBe("https://localhost:3000/taskpane.html");
  });

  it("should name only URLs that the dev server serves", () => {
    const urls = [...new Set(allUrls(manifest))];
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) {
      const { origin, pathname } = new URL(url);
      expect(origin).withContext(url).toBe("https://localhost:3000");
      const file = decodeURIComponent(pathname.replace(/^\//, ""));
      const staticMatch = devServerStatic.some(
        ({ directory, publicPath = "/" }) =>
          pathname.startsWith(publicPath) &&
          existsSync(path.join(directory, pathname.slice(publicPath.length)))
      );
      expect(existsSync(path.join(outputDir, file)) || staticMatch)
        .withContext(`${url} is not in the build output or the dev server's static folders`)
        .toBeTrue();
    }
  });

  it("should ship functions.json as generated from functions.ts, and register each function", async () => {
    const metadata = requireFromRoot(
      "custom-functions-metadata"
    ) as typeof import("custom-functions-metadata");
    const generated = await metadata.generateCustomFunctionsMetadata(
      path.join(root, "functions", "functions.ts")
    );
    expect(JSON.parse(readFileSync(path.join(outputDir, "functions.json"), "utf8"))).toEqual(
      JSON.parse(generated.metadataJson)
    );
    const bundle = readFileSync(path.join(outputDir, "functions.js"), "utf8");
    for (const [id, name] of [
      ["RUN", "spellRun"],
      ["INPUTS", "spellInputs"],
      ["BULK", "spellBulk"],
    ]) {
      expect(bundle).toContain(`CustomFunctions.associate("${id}", ${name})`);
    }
  });

  it("should load both bundles on the shared page", () => {
    const html = readFileSync(path.join(outputDir, "taskpane.html"), "utf8");
    expect(html).toMatch(/<script[^>]+src="[^"]*functions\.js"/);
    expect(html).toMatch(/<script[^>]+src="[^"]*taskpane\.js"/);
  });
});
