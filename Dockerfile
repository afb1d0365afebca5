# schedplan's container image, for the manifests in deploy/ (their image
# tag is this file's version label; TestDeployImagePinned checks it).
#
#   docker build -t registry.example.internal/schedplan:0.1.0 .
#
# Two stages: the build stage compiles schedplan with cgo against COIN-OR
# CLP (lp/clp.go: #cgo pkg-config: clp); the runtime stage is Debian slim
# with CLP's shared libraries (libClp, libCoinUtils and what they load:
# LAPACK, BLAS, bzip2) and /bin/sh, which deploy/run-workflow.yaml's steps
# run in (the Jobs call schedplan directly). Tags are pinned to versions,
# never :latest; pin digests (@sha256:…) for reproducible builds.

FROM golang:1.26.8-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends coinor-libclp-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -o /out/schedplan ./cmd/schedplan

FROM debian:12.12-slim
LABEL org.opencontainers.image.title="schedplan" \
      org.opencontainers.image.version="0.1.0"
RUN apt-get update \
 && apt-get install -y --no-install-recommends coinor-libclp1 coinor-libcoinutils3v5 liblapack3 libblas3 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --create-home schedplan
COPY --from=build /out/schedplan /usr/local/bin/schedplan
USER 10001
WORKDIR /data
ENTRYPOINT ["/usr/local/bin/schedplan"]
CMD ["--help"]
