/**
 * What a production build of the add-in adds for releases that never mix files of two versions
 * (webpack.config.js applies both in production):
 *
 * - `StableScriptAliasPlugin`: the bundles carry a content hash in their names
 *   (`functions.<hash>.js`), which taskpane.html names (html-webpack-plugin), so a pane that
 *   loaded one release's page keeps loading that release's scripts. The manifest's
 *   `Functions.Script.Url` must stay the same across releases, so the functions bundle is also
 *   written under its plain name (`functions.js`), a whole copy that needs no other file.
 * - `PrecompressPlugin`: every text file to host of 1 KiB or more is also written compressed
 *   (`.br`, brotli, and `.gz`, gzip) beside it; the add-in server sends those to browsers that
 *   accept them (@fastify/static `preCompressed`), at no cost per request.
 */
const zlib = require("node:zlib");

const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|xml|svg|txt)$/;

/** Writes an entry's hashed bundle under a fixed name too. */
class StableScriptAliasPlugin {
  /** @param {{ chunk: string, filename: string }} options the entry and the fixed file name */
  constructor(options) {
    this.options = options;
  }

  apply(compiler) {
    const { Compilation } = compiler.webpack;
    compiler.hooks.thisCompilation.tap("StableScriptAliasPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        // After minification and the real content hashes; before compression.
        {
          name: "StableScriptAliasPlugin",
          stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER - 1,
        },
        () => {
          const chunk = [...compilation.chunks].find((each) => each.name === this.options.chunk);
          const file = chunk && [...chunk.files].find((name) => name.endsWith(".js"));
          if (!file) {
            compilation.errors.push(
              new compiler.webpack.WebpackError(`No bundle of the entry "${this.options.chunk}".`)
            );
            return;
          }
          // The same bytes: already minimized (no second pass), not immutable (a fixed name).
          compilation.emitAsset(this.options.filename, compilation.getAsset(file).source, {
            minimized: true,
          });
        }
      );
    });
  }
}

/** Writes `.br` and `.gz` beside each text file to host of at least `minBytes`. */
class PrecompressPlugin {
  /** @param {{ minBytes?: number }} [options] */
  constructor(options = {}) {
    this.minBytes = options.minBytes ?? 1024;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap("PrecompressPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "PrecompressPlugin", stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        () => {
          for (const asset of compilation.getAssets()) {
            // Source maps are written beside the folder to host ("../"), never served.
            if (asset.name.startsWith("../") || !COMPRESSIBLE.test(asset.name)) continue;
            const content = asset.source.buffer();
            if (content.length < this.minBytes) continue;
            const brotli = zlib.brotliCompressSync(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            });
            compilation.emitAsset(`${asset.name}.br`, new sources.RawSource(brotli));
            compilation.emitAsset(
              `${asset.name}.gz`,
              new sources.RawSource(zlib.gzipSync(content, { level: 9 }))
            );
          }
        }
      );
    });
  }
}

module.exports = { StableScriptAliasPlugin, PrecompressPlugin };
