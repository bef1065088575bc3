/** The loader hook of start-modules.mjs: tells it of every module loaded. */
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, next) {
  port.postMessage(url);
  return next(url, context);
}
