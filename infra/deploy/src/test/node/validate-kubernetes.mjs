// Checks every object of a rendered chart against the Kubernetes schemas, with the npm package kubernetes-models
// (each class validates its object against the API's JSON schema). Reads a JSON array of objects from the file named
// by the first argument; prints one JSON line per object ({kind, name, result, error}) and exits 1 when one is
// invalid or of a kind the package does not know. Custom resources (Strimzi's KafkaTopic) have no schema here: they
// are reported as "custom" and checked by the Java tests.
import { readFileSync } from "node:fs";

const objects = JSON.parse(readFileSync(process.argv[2], "utf8"));
let failed = false;
for (const object of objects) {
  const { apiVersion = "", kind = "" } = object;
  const name = object.metadata?.name;
  if (apiVersion.includes(".") && !apiVersion.includes("k8s.io/")) {
    console.log(JSON.stringify({ kind, name, result: "custom" }));
    continue;
  }
  let model;
  try {
    model = (await import(`kubernetes-models/${apiVersion}`))[kind];
  } catch (e) {
    model = undefined;
  }
  if (!model) {
    failed = true;
    console.log(JSON.stringify({ kind, name, result: "unknown", error: `no model for ${apiVersion} ${kind}` }));
    continue;
  }
  try {
    new model(object).validate();
    console.log(JSON.stringify({ kind, name, result: "valid" }));
  } catch (e) {
    failed = true;
    console.log(JSON.stringify({ kind, name, result: "invalid", error: String(e?.message ?? e) }));
  }
}
process.exit(failed ? 1 : 0);
