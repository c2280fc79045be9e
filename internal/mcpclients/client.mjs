// A scriptable MCP client on the official TypeScript SDK, for the end-to-end
// test of `linemem mcp` (cmd/linemem/mcp_clients_test.go). It reads one JSON
// command per line on stdin and answers each with one JSON line on stdout,
// so the test can act between calls (ingest a chat) within one session:
//
//   {"op":"connect","stdio":{"command":C,"args":[...],"env":{...}}}
//   {"op":"connect","http":{"url":U,"headers":{...}}}
//   {"op":"list"}                          → {"tools":[...]}
//   {"op":"call","name":N,"arguments":{}}  → the tools/call result
//   {"op":"close"}                         → {}
//
// A failure is answered {"error": message, "code": code}: the JSON-RPC code,
// or the HTTP status of a refused request.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

let client;

async function run(cmd) {
  switch (cmd.op) {
    case "connect": {
      client = new Client({ name: "linemem-e2e-ts", version: "1.0.0" });
      const transport = cmd.stdio
        ? new StdioClientTransport({ command: cmd.stdio.command, args: cmd.stdio.args, env: { ...process.env, ...cmd.stdio.env }, stderr: "ignore" })
        : new StreamableHTTPClientTransport(new URL(cmd.http.url), { requestInit: { headers: cmd.http.headers ?? {} } });
      await client.connect(transport);
      return { server: client.getServerVersion(), instructions: client.getInstructions() };
    }
    case "list":
      return await client.listTools();
    case "call":
      return await client.callTool({ name: cmd.name, arguments: cmd.arguments });
    case "close":
      await client.close();
      return {};
  }
  throw new Error(`unknown op ${cmd.op}`);
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === "") continue;
  let out;
  try {
    out = await run(JSON.parse(line));
  } catch (err) {
    out = { error: String(err?.message ?? err), code: err?.code ?? null };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
if (client) await client.close();
