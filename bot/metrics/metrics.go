// Package metrics holds the Prometheus metrics of one topochess process
// (docs/operations.md). They live in a registry of their own rather than
// the global default one, so every serve — and every test — counts from
// zero and registering twice never panics.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Command outcomes.
const (
	OK      = "ok"      // the command did what was asked
	Refused = "refused" // a friendly refusal: nothing changed
	Error   = "error"   // a failure on the bot's side (storage, a panic)
)

// Metrics is one process's set of metrics; a nil *Metrics counts nothing,
// so adapters built without one (their tests) need no change.
type Metrics struct {
	reg      *prometheus.Registry
	commands *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	errors   *prometheus.CounterVec
	limited  *prometheus.CounterVec
}

// New makes the metrics and their registry, with the Go runtime's and
// the process's own metrics beside them.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "topochess_commands_total",
			Help: "Commands handled, by command kind and outcome (ok, refused, error).",
		}, []string{"kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "topochess_reply_seconds",
			Help: "Time from a command's receipt to the bot's answer, by platform.",
			// Commands answer in milliseconds; a picture takes tens of
			// them, a busy disk or a lock held by another move longer.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"platform"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "topochess_platform_errors_total",
			Help: "Failed calls to a chat platform's API (429s not included), by platform.",
		}, []string{"platform"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "topochess_platform_rate_limited_total",
			Help: "Calls a chat platform refused with 429 Too Many Requests, by platform.",
		}, []string{"platform"}),
	}
	m.reg.MustRegister(m.commands, m.latency, m.errors, m.limited,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Command counts one handled command and how long its answer took.
func (m *Metrics) Command(platform, kind, outcome string, took time.Duration) {
	if m == nil {
		return
	}
	m.commands.WithLabelValues(kind, outcome).Inc()
	m.latency.WithLabelValues(platform).Observe(took.Seconds())
}

// GaugeFunc registers a gauge read when scraped; value must be cheap.
func (m *Metrics) GaugeFunc(name, help string, value func() float64) {
	if m == nil {
		return
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, value))
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Platform is where one adapter counts its failed calls.
func (m *Metrics) Platform(name string) *Platform {
	if m == nil {
		return nil
	}
	return &Platform{errors: m.errors.WithLabelValues(name), limited: m.limited.WithLabelValues(name)}
}

// Platform counts one platform's failed calls; a nil *Platform counts
// nothing.
type Platform struct {
	errors, limited prometheus.Counter
}

// Error counts a failed call (not a 429).
func (p *Platform) Error() {
	if p != nil {
		p.errors.Inc()
	}
}

// RateLimited counts a 429.
func (p *Platform) RateLimited() {
	if p != nil {
		p.limited.Inc()
	}
}

// Queue is the work waiting of one job kind (storage.JobStat): jobs
// due, and the age of the oldest of them.
type Queue struct {
	Kind  string
	Depth int
	Lag   time.Duration
}

// JobQueues registers the job queue gauges, per kind; read is called on
// each scrape (one database query) and a failed read reports nothing.
func (m *Metrics) JobQueues(read func() ([]Queue, error)) {
	if m == nil {
		return
	}
	m.reg.MustRegister(&jobCollector{read: read,
		depth: prometheus.NewDesc("topochess_job_queue_depth", "Jobs due (claimed or not), by kind: clock, bot, challenges, outbox.", []string{"kind"}, nil),
		lag:   prometheus.NewDesc("topochess_job_lag_seconds", "Age of the oldest due job, by kind; 0 when none is due.", []string{"kind"}, nil),
	})
}

type jobCollector struct {
	read       func() ([]Queue, error)
	depth, lag *prometheus.Desc
}

func (c *jobCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.depth
	ch <- c.lag
}

func (c *jobCollector) Collect(ch chan<- prometheus.Metric) {
	qs, err := c.read()
	if err != nil {
		return
	}
	for _, q := range qs {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(q.Depth), q.Kind)
		ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, q.Lag.Seconds(), q.Kind)
	}
}
