// JSON Patch (RFC 6902: add, replace, remove) applied to a view, as the server's paigow.protocol.patch
// writes it. applyPatch returns a new document and never changes its argument; a patch that does not apply
// throws PatchError naming the operation and the path (the client then asks for a fresh snapshot).

export class PatchError extends Error {}

const unescape = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");

function index(token, size, path) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`path ${JSON.stringify(path)}: ${JSON.stringify(token)} is not an array index`);
  const i = Number(token);
  if (i >= size) throw new PatchError(`path ${JSON.stringify(path)}: index ${i} is past the end of the array (${size} items)`);
  return i;
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

function child(value, token, path) {
  if (Array.isArray(value)) return value[index(token, value.length, path)];
  if (isObject(value)) {
    if (!own(value, token)) throw new PatchError(`path ${JSON.stringify(path)}: no member ${JSON.stringify(token)}`);
    return value[token];
  }
  throw new PatchError(`path ${JSON.stringify(path)}: ${JSON.stringify(token)} is inside a value that is not an object or an array`);
}

function applyOne(doc, op) {
  if (!isObject(op) || typeof op.path !== "string") throw new PatchError(`not a patch operation: ${JSON.stringify(op)}`);
  const { op: kind, path } = op;
  if (!["add", "replace", "remove"].includes(kind)) throw new PatchError(`operation ${JSON.stringify(kind)} at ${JSON.stringify(path)} is not one of add, replace, remove`);
  if (kind !== "remove" && !own(op, "value")) throw new PatchError(`${kind} at ${JSON.stringify(path)} has no value`);
  const value = kind === "remove" ? undefined : structuredClone(op.value);
  if (path === "") {
    if (kind === "remove") throw new PatchError("remove of the whole document");
    return value;
  }
  if (!path.startsWith("/")) throw new PatchError(`path ${JSON.stringify(path)} does not start with '/'`);
  const tokens = path.slice(1).split("/").map(unescape);
  const last = tokens.pop();
  let target = doc;
  for (const token of tokens) target = child(target, token, path);
  if (isObject(target)) {
    if (kind !== "add" && !own(target, last)) throw new PatchError(`${kind} at ${JSON.stringify(path)}: no member ${JSON.stringify(last)}`);
    if (kind === "remove") delete target[last];
    // A member named "__proto__" (any text is a key in JSON) is an own member, never the prototype.
    else Object.defineProperty(target, last, { value, writable: true, enumerable: true, configurable: true });
  } else if (Array.isArray(target)) {
    if (kind === "add" && last === "-") target.push(value);
    else {
      const i = index(last, target.length + (kind === "add" ? 1 : 0), path);
      if (kind === "add") target.splice(i, 0, value);
      else if (kind === "remove") target.splice(i, 1);
      else target[i] = value;
    }
  } else {
    throw new PatchError(`${kind} at ${JSON.stringify(path)}: the parent is not an object or an array`);
  }
  return doc;
}

/** The document with every operation applied in order (a new value). */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is an array of operations");
  let result = structuredClone(doc);
  for (const op of ops) result = applyOne(result, op);
  return result;
}
