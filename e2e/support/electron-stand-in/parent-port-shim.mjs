// Preloaded into a stand-in utility process (a Node child_process.fork): gives it Electron's
// `process.parentPort` over Node's IPC channel. Listeners attach when the entry asks for them:
// the IPC channel does not exist yet while --import modules run.
process.parentPort = {
  on(event, listener) {
    if (event === 'message') process.on('message', (data) => listener({ data, ports: [] }));
    return this;
  },
  postMessage(message) {
    process.send?.(message);
  },
};
