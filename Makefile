# A thin layer over the go command. libz3 is detected with pkg-config: where
# it is missing (or cgo is off) everything builds with -tags noz3, a pure-Go
# binary without the Z3 backend.
GO       ?= go
Z3       := $(shell pkg-config --exists z3 2>/dev/null && [ "$$($(GO) env CGO_ENABLED)" = 1 ] && echo yes)
TAGS     := $(if $(Z3),,-tags noz3)
VERSION  := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   := $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
LDFLAGS  := -ldflags "-X github.com/nlsat/nlsat/internal/version.version=$(VERSION) -X github.com/nlsat/nlsat/internal/version.commit=$(COMMIT)"
FUZZTIME ?= 30s
BIN      := bin/nlsat

PREFIX   ?= /usr/local

.PHONY: all build install run test short lint bench fuzz clean

all: build

build:
	$(GO) build $(TAGS) $(LDFLAGS) -o $(BIN) ./cmd/nlsat

# Puts nlsat where the nodes of a cluster find it: PREFIX/bin (on a shared
# file system, or run on every node).
install: build
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/nlsat

# The main job on the built-in defaults: the paper-size dataset of
# fragment A (120,000 / 10,000 / 10,000), written to out/nlsat-A. Run again
# after an interruption, it resumes.
run: build
	@mkdir -p out
	$(BIN) split --out out/nlsat-A

# -timeout: go test's default of 10 minutes per package is close to what
# cmd/nlsat takes on a loaded 2-core machine (532 s measured beside make run).
# The race detector runs the packages whose code is concurrent, with -short:
# what -short skips or shrinks there are long statistical checks and
# cross-checks, which the first line has run in full; the concurrent code
# they call runs in the tests that remain.
test: lint
	$(GO) test $(TAGS) -timeout 30m ./...
	$(GO) test $(TAGS) -timeout 30m -race -short ./internal/pipeline/ ./internal/job/ ./internal/phase/ ./internal/solver/ ./internal/solver/z3/
	$(GO) test $(TAGS) -timeout 30m -race -run TestKeepFromManyGoroutines ./internal/split/

# Everyday work: every test but those that build whole datasets or run
# long cross-checks (go test -short), in under two minutes.
short:
	$(GO) test $(TAGS) -short ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(TAGS) ./...
	@cp go.mod /tmp/nlsat-go.mod.bak; cp go.sum /tmp/nlsat-go.sum.bak; \
	  $(GO) mod tidy; \
	  if ! git diff --quiet -- go.mod go.sum 2>/dev/null; then \
	    echo "go mod tidy changed go.mod/go.sum"; git --no-pager diff -- go.mod go.sum; \
	    cp /tmp/nlsat-go.mod.bak go.mod; cp /tmp/nlsat-go.sum.bak go.sum; exit 1; fi

bench:
	$(GO) test $(TAGS) -run '^$$' -bench . -benchmem ./...

# Runs every fuzz target for FUZZTIME each (go test runs one target at a time).
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test $(TAGS) -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test $(TAGS) -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; done

clean:
	rm -rf bin out
