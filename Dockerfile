# l2node container image (docs/deployment.md).
#
#   docker build -t l2node .                      # or: podman build --format docker -t l2node .
#   docker run -d --name l2node -p 8080:8080 -v l2node-data:/data l2node
#
# BASE_IMAGE is any Debian bookworm image with apt. The default, the official slim Node image, carries the
# Node the project pins; on any other base (a plain Debian made with debootstrap, say) the image takes that
# Node from the project's `node` dev dependency instead. Either way it runs on exactly Node 24.12.0.
ARG BASE_IMAGE=docker.io/library/node:24.12.0-bookworm-slim

# --- build: dependencies from the lockfile, the TypeScript build, the native Poseidon2 addon --------------------
FROM ${BASE_IMAGE} AS build
ENV DEBIAN_FRONTEND=noninteractive
# node-gyp needs a compiler, make and Python. npm comes with the official Node images; a plain Debian base gets
# Debian's nodejs and npm, used only to run `npm ci`: that installs the pinned Node, which runs everything after.
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ make python3 ca-certificates \
      $(command -v npm >/dev/null || echo nodejs npm) \
 && rm -rf /var/lib/apt/lists/*
# Behind a proxy that re-signs TLS, pass its CA bundle as a build secret: --secret id=ca-certificates,src=<pem>.
ARG CA_SECRET=/run/secrets/ca-certificates
# node-gyp from upstream, pinned: Debian's copy links addons against Debian's libnode, which crashes them in any
# other Node. (The official images' npm bundles this same upstream node-gyp.)
ENV npm_config_node_gyp=/opt/node-gyp/node_modules/node-gyp/bin/node-gyp.js
RUN --mount=type=secret,id=ca-certificates,required=false \
    if [ -f "$CA_SECRET" ]; then export NODE_EXTRA_CA_CERTS="$CA_SECRET"; fi \
 && npm install --prefix /opt/node-gyp --no-audit --no-fund node-gyp@12.4.0
WORKDIR /src
COPY package.json package-lock.json ./
# No lifecycle scripts yet (the root's `install` and `prepare` need the sources); then the `node` package's
# preinstall alone, which fetches the pinned Node binary (node-linux-<arch>, with its headers).
RUN --mount=type=secret,id=ca-certificates,required=false \
    if [ -f "$CA_SECRET" ]; then export NODE_EXTRA_CA_CERTS="$CA_SECRET"; fi \
 && npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild node \
 && test "$(node_modules/.bin/node --version)" = "v$(node -p 'require("./package.json").devDependencies.node')"
COPY tsconfig.json tsconfig.build.json tsconfig.api.json binding.gyp ./
COPY bin bin
COPY native native
COPY scripts scripts
COPY src src
# The root's install script, run by hand (npm would hand it its own node-gyp) on the pinned Node, against that
# Node's own headers (so node-gyp downloads nothing). The addon must be there: the image is for running nodes,
# and the WebAssembly fallback is ten times slower in batches.
RUN npm_config_nodedir="$(dirname node_modules/node/node_modules/node-linux-*/include)" \
    node_modules/.bin/node native/build.mjs \
 && test -f build/Release/poseidon2.node || { cat build/poseidon2-build.log; exit 1; }
# npm scripts put node_modules/.bin first on PATH: the build runs on the pinned Node too.
RUN npm run build
# The runtime keeps the base's Node when it is the pinned one (the official images keep theirs in /usr/local);
# otherwise it gets the pinned binary, staged here before the dev dependencies (the `node` package) go.
RUN mkdir -p /opt/node/bin \
 && pinned="$(node_modules/.bin/node --version)" \
 && if [ "$(/usr/local/bin/node --version 2>/dev/null)" != "$pinned" ]; then \
      cp node_modules/node/bin/node /opt/node/bin/node; fi \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 # bb.js ships bb executables for four platforms (about 130 MB); l2node only uses its WebAssembly build.
 && rm -rf node_modules/@aztec/bb.js/build

# --- runtime: Node, dist, production dependencies and the native addon --------------------------------------------
FROM ${BASE_IMAGE} AS runtime
COPY --from=build /opt/node/ /usr/local/
RUN groupadd --system --gid 10001 l2node \
 && useradd --system --uid 10001 --gid l2node --home-dir /home/l2node --create-home --shell /usr/sbin/nologin l2node \
 && install -d -o l2node -g l2node -m 0700 /data
WORKDIR /app
COPY --from=build /src/package.json /src/oclif.manifest.json ./
COPY --from=build /src/bin bin
COPY --from=build /src/dist dist
COPY --from=build /src/build/Release/poseidon2.node build/Release/poseidon2.node
COPY --from=build /src/node_modules node_modules
COPY deploy/container/status-probe.mjs deploy/status-probe.mjs
RUN ln -s /app/bin/run.js /usr/local/bin/l2node
# The public listener serves the container's network; the admin listener stays on the container's loopback and
# is not exposed: operators reach it with `docker exec <container> l2node admin ...` (spec part 1). The key hash,
# like the chain, lives in the /data volume. Configure with NODE_* variables: the status probe reads them too.
ENV NODE_HOST=0.0.0.0 \
    NODE_PORT=8080 \
    NODE_ADMIN_HOST=127.0.0.1 \
    NODE_ADMIN_PORT=8880 \
    NODE_DATA_DIRECTORY=/data
VOLUME ["/data"]
EXPOSE 8080
USER 10001:10001
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "/app/deploy/status-probe.mjs", "live"]
# The node stops gracefully on SIGTERM within 15 s (then forces itself): give it a grace period above that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["l2node"]
CMD ["start"]
