// Parses an AsyncAPI document with the official parser (@asyncapi/parser, installed next to this script by
// AsyncApiDocumentTests) and prints one JSON line: {"valid": bool, "errors": [...], "warnings": n}.
// Exits 1 when the parser reports an error (or returns no document), 0 otherwise; warnings do not fail.
import { Parser, fromFile } from '@asyncapi/parser';

const file = process.argv[2];
const parser = new Parser();
const { document, diagnostics } = await fromFile(parser, file).parse();
// DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint
const errors = diagnostics.filter((d) => d.severity === 0)
  .map((d) => `${(d.path || []).join('.')}: ${d.message} (${d.code})`);
const warnings = diagnostics.filter((d) => d.severity === 1).length;
const valid = document !== undefined && errors.length === 0;
console.log(JSON.stringify({ valid, errors, warnings }));
process.exit(valid ? 0 : 1);
