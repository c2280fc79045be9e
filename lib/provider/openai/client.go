// Package openai implements provider.Summarizer with the OpenAI Responses API
// and provider.Embedder with the Embeddings API, through the official
// openai-go SDK, so the same code talks to OpenAI and to OpenAI-compatible
// local servers (set BaseURL or OPENAI_BASE_URL). A service whose URL names
// a loopback host is local (Embedder.Remote and Summarizer.Remote are
// false): sending it chat text needs no --allow-remote.
//
// The API key is read by the SDK from OPENAI_API_KEY and nowhere else; no
// option takes a key, so none can end up in a database, a log or a report.
// Error texts that reach callers are scrubbed of anything shaped like a key.
//
// The SDK's own retries are disabled: every attempt goes through
// retry.Policy (exponential backoff with seeded jitter, honouring
// Retry-After / retry-after-ms) and the client-side ratelimit.Limiter, so
// provenance counts attempts exactly. Transient: HTTP 408, 409, 429, 5xx, a
// per-attempt timeout, a network error, an unparseable body. Permanent: any
// other HTTP status and an answer that is well-formed but unusable (empty
// summary, wrong number of vectors, a dimension change).
package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/linemem/linemem/lib/loopback"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/ratelimit"
	"github.com/linemem/linemem/lib/provider/retry"
)

// Name is the provider name in the registry.
const Name = "openai"

// DefaultBaseURL is where requests go when neither Config.BaseURL nor
// OPENAI_BASE_URL is set (the SDK's default).
const DefaultBaseURL = "https://api.openai.com/v1/"

// Config is shared by the summarizer and the embedder.
type Config struct {
	Model        string        // requested model
	BaseURL      string        // "" = OPENAI_BASE_URL, else DefaultBaseURL
	Organization string        // "" = OPENAI_ORG_ID when set
	Timeout      time.Duration // per attempt; 0 = no client timeout
	Retry        retry.Policy
	Limiter      *ratelimit.Limiter // nil = unlimited
	HTTPClient   *http.Client       // nil = the SDK default
}

type client struct {
	sdk     openai.Client
	cfg     Config
	baseURL string
}

// ErrBaseURL marks a service URL (Config.BaseURL or OPENAI_BASE_URL) that is
// not an absolute http or https URL with a host: found before any request,
// so it is not retried as a transient failure.
var ErrBaseURL = errors.New("bad service URL")

// CheckBaseURL reports whether s, from where (the flag or variable that gave
// it), is an absolute http:// or https:// URL with a host.
func CheckBaseURL(where, s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s %q: %v", ErrBaseURL, where, s, errors.Unwrap(err))
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: %s %q: expected a URL starting with http:// or https://", ErrBaseURL, where, s)
	case u.Host == "":
		return fmt.Errorf("%w: %s %q: expected a host after %s://", ErrBaseURL, where, s, u.Scheme)
	}
	return nil
}

// IsLoopbackURL reports whether the host of the URL s is "localhost" or a
// loopback IP address (127.0.0.0/8, ::1), by loopback.IsLoopbackHost. Any
// other host, and a URL that does not parse, is not loopback.
func IsLoopbackURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return loopback.IsLoopbackHost(u.Hostname())
}

// newClient checks the service URL (Config.BaseURL, else OPENAI_BASE_URL)
// and builds the client.
func newClient(cfg Config) (*client, error) {
	opts := []option.RequestOption{option.WithMaxRetries(0)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.Organization != "" {
		opts = append(opts, option.WithOrganization(cfg.Organization))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	base, where := cfg.BaseURL, "--base-url"
	if base == "" {
		base, where = os.Getenv("OPENAI_BASE_URL"), "OPENAI_BASE_URL"
	}
	if base == "" {
		base = DefaultBaseURL
	}
	if err := CheckBaseURL(where, base); err != nil {
		return nil, err
	}
	return &client{sdk: openai.NewClient(opts...), cfg: cfg, baseURL: base}, nil
}

// call runs attempt under the retry policy, the rate limiter and the
// per-attempt timeout. attempt receives a slot for the HTTP response so
// errors can be classified by status. It returns the attempts made, the
// total latency and the SDK version that sent the final request; a failure
// is a *provider.CallError unless ctx itself ended.
func (c *client) call(ctx context.Context, tokens int, attempt func(ctx context.Context, raw **http.Response) error) (int, time.Duration, string, error) {
	start := time.Now()
	var last *http.Response
	classify := func(err error) retry.Outcome { return classifyError(err, last) }
	n, err := c.cfg.Retry.Do(ctx, classify, func(ctx context.Context) error {
		if err := c.cfg.Limiter.Wait(ctx, tokens); err != nil {
			return err
		}
		actx, cancel := ctx, context.CancelFunc(func() {})
		if c.cfg.Timeout > 0 {
			actx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
		}
		defer cancel()
		last = nil
		err := attempt(actx, &last)
		if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Errorf("%w: no answer within %s", errTimeout, c.cfg.Timeout)
		}
		return err
	})
	latency := time.Since(start)
	if err == nil {
		return n, latency, sdkOf(last), nil
	}
	if ctx.Err() != nil {
		return n, latency, "", ctx.Err()
	}
	return n, latency, "", &provider.CallError{Attempts: n, Permanent: !classify(err).Retry, Unreachable: provider.Unreachable(err), Err: sanitize(err)}
}

// sdkOf reads the SDK version from the User-Agent the SDK sent
// ("OpenAI/Go 3.98.0"), falling back to SDKVersion.
func sdkOf(res *http.Response) string {
	if res != nil && res.Request != nil {
		if v, ok := strings.CutPrefix(res.Request.Header.Get("User-Agent"), "OpenAI/Go "); ok && v != "" {
			return "openai-go v" + v
		}
	}
	return SDKVersion()
}

var errTimeout = errors.New("timeout")

// permanentError marks an answer that retrying will not fix.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

func classifyError(err error, res *http.Response) retry.Outcome {
	var perm permanentError
	if errors.As(err, &perm) {
		return retry.Outcome{}
	}
	if errors.Is(err, errTimeout) {
		return retry.Outcome{Retry: true}
	}
	if provider.Unreachable(err) { // refused or unresolvable: another attempt fails the same way
		return retry.Outcome{}
	}
	status := 0
	var header http.Header
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		status = apiErr.StatusCode
		if apiErr.Response != nil {
			header = apiErr.Response.Header
		}
	} else if res != nil {
		status, header = res.StatusCode, res.Header
	}
	if status >= 400 {
		if !retry.HTTPStatusRetryable(status) {
			return retry.Outcome{}
		}
		return retry.Outcome{Retry: true, RetryAfter: retry.RetryAfter(header, time.Now())}
	}
	// No error status: a network failure or a body that would not parse.
	return retry.Outcome{Retry: true}
}

var keyShape = regexp.MustCompile(`sk-[A-Za-z0-9_\-*.]{4,}`)

// sanitize renders err without the API key or anything shaped like one, and
// adds the service's error message, which the SDK's Error() omits.
func sanitize(err error) error {
	msg := err.Error()
	var apiErr *openai.Error
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		msg = fmt.Sprintf("HTTP %d: %s", apiErr.StatusCode, apiErr.Message)
	}
	if key := os.Getenv("OPENAI_API_KEY"); len(key) >= 4 {
		msg = strings.ReplaceAll(msg, key, "[API key]")
	}
	msg = keyShape.ReplaceAllString(msg, "sk-[redacted]")
	if msg == err.Error() {
		return err
	}
	var perm permanentError
	if errors.As(err, &perm) {
		return permanentError{errors.New(msg)}
	}
	return errors.New(msg)
}

// SDKVersion is "openai-go " plus the module version linked into this
// binary according to its build information, or "openai-go (unknown
// version)" when that is absent (test binaries).
func SDKVersion() string {
	sdkOnce.Do(func() {
		sdkVersion = "openai-go (unknown version)"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, m := range bi.Deps {
				if m.Path == "github.com/openai/openai-go/v3" {
					v := m.Version
					if m.Replace != nil && m.Replace.Version != "" {
						v = m.Replace.Version
					}
					sdkVersion = "openai-go " + v
				}
			}
		}
	})
	return sdkVersion
}

var (
	sdkOnce    sync.Once
	sdkVersion string
)

// endpoint joins the base URL and a path for messages about where data goes.
// A password in the URL's userinfo is masked (user:xxxxx@host), since these
// messages are printed and logged.
func (c *client) endpoint(path string) string {
	return strings.TrimRight(maskPassword(c.baseURL), "/") + "/" + path
}

// maskPassword returns rawURL with the password of its userinfo replaced by
// "xxxxx" (url.URL.Redacted); a URL that does not parse keeps only what
// follows its last "@".
func maskPassword(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		if at := strings.LastIndex(rawURL, "@"); at >= 0 {
			return "xxxxx@" + rawURL[at+1:]
		}
		return rawURL
	}
	return u.Redacted()
}

func registryConfig(opts provider.Options, model string, interval time.Duration) Config {
	rl := ratelimit.Config{RequestsPerMinute: opts.RequestsPerMin, TokensPerMinute: opts.TokensPerMin, Interval: interval}
	pol := retry.Default(1)
	if opts.MaxAttempts > 0 {
		pol.MaxAttempts = opts.MaxAttempts
	}
	if opts.Model != "" {
		model = opts.Model
	}
	return Config{
		Model:        model,
		BaseURL:      opts.BaseURL,
		Organization: opts.Organization,
		Timeout:      opts.Timeout,
		Retry:        pol,
		Limiter:      ratelimit.New(rl),
	}
}
