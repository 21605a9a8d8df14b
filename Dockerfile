# An image with nlsat on its PATH, for Kubernetes
# (deploy/kubernetes-build.sh) or any container engine:
#
#   docker build -t nlsat .
#   docker run --rm -v "$PWD/out:/data" nlsat nlsat split --fragment V --out /data/nlsat-V
#
# The first stage builds nlsat with the Z3 backend against Debian's
# libz3-dev, as `make build` does on a workstation (the repository's .git
# goes in too, so `nlsat --version` names the commit); the second holds the
# binary and the libraries it loads.
FROM golang:1.26-bookworm AS build
RUN apt-get update \
	&& apt-get install -y --no-install-recommends gcc libc6-dev libz3-dev make pkg-config \
	&& rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN make build

FROM debian:bookworm-slim
RUN apt-get update \
	&& apt-get install -y --no-install-recommends libz3-4 \
	&& rm -rf /var/lib/apt/lists/*
COPY --from=build /src/bin/nlsat /usr/local/bin/nlsat
WORKDIR /data
CMD ["nlsat", "--help"]
