package soak

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Target is one process the sampler watches.
type Target struct {
	// Name is the daemon's name in the CSV and the table.
	Name string
	// Pid finds the process; it may change its answer (the simulated
	// cloud is found as the cloud controller manager's child).
	Pid func() (int, error)
	// MetricsURL, when set, is the process's /metrics, read with Client;
	// FromMetrics names the metrics taken from it.
	MetricsURL  string
	Client      *http.Client
	FromMetrics map[Metric]string
}

// Sample is one value of one metric of one target.
type Sample struct {
	Daemon string
	Metric Metric
	Value  float64
}

// Collect samples every target once: RSS and open files from /proc, the
// rest from its /metrics. A metric it could not read is left out and its
// error returned, with the others' values.
func Collect(ctx context.Context, targets []Target) ([]Sample, error) {
	var out []Sample
	var errs []error
	for _, t := range targets {
		s, err := collectOne(ctx, t)
		out = append(out, s...)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.Name, err))
		}
	}
	return out, errors.Join(errs...)
}

func collectOne(ctx context.Context, t Target) ([]Sample, error) {
	var out []Sample
	var errs []error
	pid, err := t.Pid()
	if err != nil {
		errs = append(errs, err)
	} else {
		if rss, err := readRSS(pid); err != nil {
			errs = append(errs, err)
		} else {
			out = append(out, Sample{t.Name, RSS, rss})
		}
		if fds, err := countFDs(pid); err != nil {
			errs = append(errs, err)
		} else {
			out = append(out, Sample{t.Name, OpenFDs, fds})
		}
	}
	if t.MetricsURL != "" {
		vals, err := scrape(ctx, t.Client, t.MetricsURL)
		if err != nil {
			errs = append(errs, err)
		}
		for m, name := range t.FromMetrics {
			if v, ok := vals[name]; ok {
				out = append(out, Sample{t.Name, m, v})
			} else if err == nil {
				errs = append(errs, fmt.Errorf("%s has no %s", t.MetricsURL, name))
			}
		}
	}
	return out, errors.Join(errs...)
}

// readRSS is VmRSS of /proc/<pid>/status, in bytes.
func readRSS(pid int) (float64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	return parseRSS(string(data))
}

// parseRSS reads the VmRSS line ("VmRSS:	  123456 kB") of a status file.
func parseRSS(status string) (float64, error) {
	for _, l := range strings.Split(status, "\n") {
		rest, ok := strings.CutPrefix(l, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("unexpected VmRSS line %q", l)
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return 0, fmt.Errorf("VmRSS line %q: %w", l, err)
		}
		return kb * 1024, nil
	}
	return 0, errors.New("no VmRSS in the status (a zombie?)")
}

// countFDs counts the entries of /proc/<pid>/fd.
func countFDs(pid int) (float64, error) {
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0, err
	}
	return float64(len(entries)), nil
}

// ChildPid finds the one child process of pid (the cloud controller
// manager's plugin) through /proc/<pid>/task/*/children.
func ChildPid(pid int) (int, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil {
		return 0, err
	}
	var kids []int
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // the thread ended meanwhile
		}
		for _, s := range strings.Fields(string(data)) {
			k, err := strconv.Atoi(s)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", f, err)
			}
			kids = append(kids, k)
		}
	}
	if len(kids) != 1 {
		return 0, fmt.Errorf("process %d has %d children, want 1", pid, len(kids))
	}
	return kids[0], nil
}

// scrape reads the unlabelled samples of a Prometheus text exposition.
func scrape(ctx context.Context, c *http.Client, url string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("GET %s: HTTP %d: %s", url, resp.StatusCode, body)
	}
	return parseExposition(resp.Body)
}

// parseExposition returns the value of each sample line without labels
// ("go_goroutines 123"); comments and labelled samples are skipped.
func parseExposition(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' || strings.ContainsRune(l, '{') {
			continue
		}
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("sample line %q: %w", l, err)
		}
		out[f[0]] = v
	}
	return out, sc.Err()
}

// Recorder keeps every sample of a run, by series, and appends each to a
// CSV file (time, elapsed_seconds, daemon, metric, value).
type Recorder struct {
	start  time.Time
	csv    *csv.Writer
	file   *os.File
	Series map[Key][]Point
}

// NewRecorder creates the CSV at path, with its header.
func NewRecorder(path string, start time.Time) (*Recorder, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	r := &Recorder{start: start, csv: csv.NewWriter(f), file: f, Series: map[Key][]Point{}}
	if err := r.csv.Write([]string{"time", "elapsed_seconds", "daemon", "metric", "value"}); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// Add records the samples taken at now.
func (r *Recorder) Add(now time.Time, samples []Sample) error {
	at := now.Sub(r.start)
	for _, s := range samples {
		k := Key{s.Daemon, s.Metric}
		r.Series[k] = append(r.Series[k], Point{At: at, Value: s.Value})
		if err := r.csv.Write([]string{now.UTC().Format(time.RFC3339), strconv.FormatFloat(at.Seconds(), 'f', 1, 64),
			s.Daemon, string(s.Metric), strconv.FormatFloat(s.Value, 'f', -1, 64)}); err != nil {
			return err
		}
	}
	r.csv.Flush()
	return r.csv.Error()
}

// Close closes the CSV file.
func (r *Recorder) Close() error { return r.file.Close() }
