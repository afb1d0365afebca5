package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/internal/lazyre"
)

// The ResourceManager's REST API as the Controller uses it: the Cluster
// Applications API (GET /ws/v1/cluster/apps) and the Cluster Application
// Queue API (PUT /ws/v1/cluster/apps/{appid}/queue). The list is not
// trusted: each record is checked on its own, and one that is malformed
// is skipped (Skip) without failing the poll.

// RMApp is the part of the ResourceManager's application object the
// controller reads (Cluster Applications API).
type RMApp struct {
	ID    string `json:"id"`
	User  string `json:"user"`
	Queue string `json:"queue"`
	State string `json:"state"`
	// MemorySeconds is MB × s of the application's containers so far
	// (a long in the RM's JSON; any finite number ≥ 0 is read, so one
	// written as 1.0e6 or beyond int64 is not refused).
	MemorySeconds float64 `json:"memorySeconds"`
	// StartedTime, LaunchTime (Hadoop 3: when the ApplicationMaster was
	// launched; 0 when not reported) are ms since the epoch, ElapsedTime
	// ms since StartedTime (AMSeconds).
	StartedTime float64 `json:"startedTime"`
	LaunchTime  float64 `json:"launchTime"`
	ElapsedTime float64 `json:"elapsedTime"`
}

// AMSeconds is how long the application's ApplicationMaster has held its
// container, s: from LaunchTime when the RM reports it, else (Hadoop 2,
// which does not) from StartedTime — an upper bound that also counts the
// time the application waited for its AM. Never negative.
func (a RMApp) AMSeconds() float64 {
	ms := a.ElapsedTime
	if a.LaunchTime > 0 && a.StartedTime > 0 && a.LaunchTime >= a.StartedTime {
		ms -= a.LaunchTime - a.StartedTime
	}
	return max(ms, 0) / 1000
}

// Attained is the application's attained service in held
// container-seconds: its memorySeconds, less what its ApplicationMaster
// held when amMB > 0 (the task containers only, as schedplan's task-level
// simulation counts them), over containerMB. Never negative.
func (a RMApp) Attained(containerMB, amMB float64) float64 {
	ms := a.MemorySeconds
	if amMB > 0 {
		ms -= amMB * a.AMSeconds()
	}
	return max(ms, 0) / containerMB
}

// ErrUnauthenticated is wrapped by the errors of requests the RM refused
// with HTTP 401: it wants an authenticated caller (ControllerOptions.User
// for simple authentication; Kerberos is not supported).
var ErrUnauthenticated = errors.New("the ResourceManager wants an authenticated user (HTTP 401)")

// RMError is a request the ResourceManager answered with a status other
// than 2xx.
type RMError struct {
	Method, Path string
	Status       int
	// Msg is the start of the RM's answer.
	Msg string
}

func (e *RMError) Error() string {
	return fmt.Sprintf("%s %s: %d %s: %s", e.Method, e.Path, e.Status, http.StatusText(e.Status), e.Msg)
}

// Unwrap is ErrUnauthenticated for a 401.
func (e *RMError) Unwrap() error {
	if e.Status == http.StatusUnauthorized {
		return ErrUnauthenticated
	}
	return nil
}

// appID is a YARN application id (ApplicationId.toString:
// application_<cluster timestamp>_<sequence number>).
var appID = lazyre.New(`^application_[0-9]{1,19}_[0-9]{1,19}$`)

// maxRMResponse bounds what the controller reads of one RM response.
const maxRMResponse = 256 << 20

func (c *Controller) url(path string, q url.Values) string {
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	u.RawPath = ""
	if c.opt.User != "" {
		q.Set("user.name", c.opt.User)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// apps lists the RUNNING applications: each once (the first record of an
// id listed again), with a valid id and usage; the records left out are
// returned as skipped.
func (c *Controller) apps(ctx context.Context) ([]RMApp, []Skip, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url("/ws/v1/cluster/apps", url.Values{"states": {"RUNNING"}}), nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	body, err := c.do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("listing applications: %w", err)
	}
	var resp struct {
		Apps *struct {
			App []json.RawMessage `json:"app"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(nonFiniteToNull(body), &resp); err != nil {
		return nil, nil, fmt.Errorf("listing applications: not the RM's JSON: %w", err)
	}
	if resp.Apps == nil { // the RM writes "apps": null when there are none
		return nil, nil, nil
	}
	var apps []RMApp
	var skipped []Skip
	seen := map[string]bool{}
	for k, raw := range resp.Apps.App {
		a, err := decodeApp(raw)
		switch {
		case err != nil:
			skipped = append(skipped, Skip{App: a.ID, Queue: a.Queue, Reason: fmt.Sprintf("record %d of the RM's list: %v", k+1, err)})
		case a.State != "RUNNING":
			skipped = append(skipped, Skip{App: a.ID, Queue: a.Queue, Reason: fmt.Sprintf("state %s: only RUNNING applications are moved", a.State)})
		case seen[a.ID]:
			skipped = append(skipped, Skip{App: a.ID, Queue: a.Queue, Reason: "listed again by the RM: the first record is used"})
		default:
			seen[a.ID] = true
			apps = append(apps, a)
		}
	}
	return apps, skipped, nil
}

// decodeApp reads one record of the RM's list: an id of YARN's form, and
// usage and times that are finite numbers ≥ 0 (memorySeconds required).
func decodeApp(raw json.RawMessage) (RMApp, error) {
	var r struct {
		ID, User, Queue, State string
		MemorySeconds          json.RawMessage `json:"memorySeconds"`
		StartedTime            json.RawMessage `json:"startedTime"`
		LaunchTime             json.RawMessage `json:"launchTime"`
		ElapsedTime            json.RawMessage `json:"elapsedTime"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return RMApp{ID: r.ID, Queue: r.Queue}, err
	}
	a := RMApp{ID: r.ID, User: r.User, Queue: r.Queue, State: r.State}
	if !appID().MatchString(r.ID) {
		return a, fmt.Errorf("id %q is not a YARN application id (application_<timestamp>_<number>)", r.ID)
	}
	if len(r.MemorySeconds) == 0 {
		return a, errors.New("no memorySeconds")
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
		to   *float64
	}{
		{"memorySeconds", r.MemorySeconds, &a.MemorySeconds},
		{"startedTime", r.StartedTime, &a.StartedTime},
		{"launchTime", r.LaunchTime, &a.LaunchTime},
		{"elapsedTime", r.ElapsedTime, &a.ElapsedTime},
	} {
		if len(f.raw) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(string(f.raw), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return a, fmt.Errorf("%s %s: need a finite number ≥ 0", f.name, f.raw)
		}
		*f.to = v
	}
	return a, nil
}

// nonFiniteToNull replaces the bare NaN, Infinity and -Infinity tokens
// some JSON writers emit (Jackson with ALLOW_NON_NUMERIC_NUMBERS; not JSON)
// outside strings with null, so that the record that has one is skipped,
// not the whole list.
func nonFiniteToNull(b []byte) []byte {
	if !bytes.Contains(b, []byte("NaN")) && !bytes.Contains(b, []byte("Infinity")) {
		return b
	}
	var out bytes.Buffer
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		ch := b[i]
		switch {
		case inString:
			inString = escaped || ch != '"'
			escaped = !escaped && ch == '\\'
		case ch == '"':
			inString = true
		default:
			if tok := nonFiniteToken(b[i:]); tok > 0 {
				out.WriteString("null")
				i += tok - 1
				continue
			}
		}
		out.WriteByte(ch)
	}
	return out.Bytes()
}

// nonFiniteToken returns the length of the NaN, Infinity or -Infinity
// token b starts with, or 0.
func nonFiniteToken(b []byte) int {
	for _, t := range []string{"NaN", "Infinity", "-Infinity", "+Infinity"} {
		if bytes.HasPrefix(b, []byte(t)) {
			return len(t)
		}
	}
	return 0
}

// move asks the RM to move app (a valid id: no character needs escaping)
// to queue.
func (c *Controller) move(ctx context.Context, app, queue string) error {
	if !appID().MatchString(app) {
		return fmt.Errorf("id %q is not a YARN application id", app)
	}
	b, _ := json.Marshal(map[string]string{"queue": queue})
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url("/ws/v1/cluster/apps/"+app+"/queue", url.Values{}), bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	_, err = c.do(req)
	return err
}

func (c *Controller) do(req *http.Request) ([]byte, error) {
	resp, err := c.opt.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRMResponse))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		msg := strings.TrimSpace(string(body))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return nil, &RMError{Method: req.Method, Path: req.URL.Path, Status: resp.StatusCode, Msg: msg}
	}
	return body, nil
}
