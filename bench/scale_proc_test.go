package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The processes of BenchmarkScale: building and running topochess
// serve, and reading the CPU time processes used.

// buildServe builds topochess from this checkout.
func buildServe(b *testing.B, dir string) string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = "/usr/local/go/bin/go"
	}
	bin := filepath.Join(dir, "topochess")
	cmd := exec.Command(goBin, "build", "-o", bin, "./cmd/topochess")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/topochess: %v\n%s", err, out)
	}
	return bin
}

var urlRE = regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)

// startServe starts `topochess serve` with its web chat on a free
// loopback port, on a bbolt file or (pgURL set) on PostgreSQL. The
// per-user command limit is raised: the players here send their next
// command the moment the last one is answered, far faster than people
// type, and the default (10 in 10 s) would refuse them.
func startServe(b *testing.B, bin, dir, name, pgURL string) *proc {
	cfg := fmt.Sprintf("storage:\n  path: %s\nlimits:\n  commands_per_10s: 1000000\nweb:\n  listen: 127.0.0.1:0\n",
		filepath.Join(dir, name+".db"))
	cfgPath := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--config", cfgPath)
	cmd.Env = os.Environ()
	if pgURL != "" {
		cmd.Env = append(cmd.Env, "TOPOCHESS_POSTGRES_URL="+pgURL)
	}
	cmd.Stderr = logf
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	p := &proc{cmd: cmd, log: logf.Name(), done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			fmt.Fprintln(logf, sc.Text())
			if u := urlRE.FindString(sc.Text()); u != "" {
				select {
				case found <- u:
				default:
				}
			}
		}
		_, _ = io.Copy(logf, out)
		_ = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	select {
	case u := <-found:
		p.url = strings.TrimSuffix(u, "/")
	case <-p.done:
		log, _ := os.ReadFile(logf.Name())
		b.Fatalf("serve %s ended at start:\n%s", name, log)
	case <-time.After(60 * time.Second):
		p.stop()
		b.Fatalf("serve %s printed no address in 60 s", name)
	}
	return p
}

// stop ends the process as an operator would, and kills it if it hangs.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// cpuOf adds up the CPU time (user and system, with reaped children) of
// processes from /proc.
func cpuOf(pids []int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		// After the name: state is field 3; utime, stime, cutime and
		// cstime are fields 14 to 17.
		for _, i := range []int{14, 15, 16, 17} {
			if n, err := strconv.ParseInt(f[i-3], 10, 64); err == nil {
				ticks += n
			}
		}
	}
	// Linux reports these in USER_HZ, 100 per second on every
	// architecture Go supports there.
	return time.Duration(ticks) * 10 * time.Millisecond
}

func rusageCPU(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
