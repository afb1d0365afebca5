package cluster

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Limits of the execution-time model's fields (see ResourceType): they keep
// every derived time and rate finite.
const (
	MaxMemoryBytes       = 1e18 // per machine (an exabyte)
	MaxRetrieveBytesPerS = 1e18 // per machine
	MaxMachineAmount     = 1e15 // any component of MachineResources
)

// Bytes is an amount of memory or storage in bytes. In YAML it is a number of
// bytes or a number with a unit: B, KB, MB, GB, TB, PB (powers of 1000) or
// KiB, MiB, GiB, TiB, PiB (powers of 1024), e.g. "400KB", "4TB", "16 GiB".
type Bytes float64

// ByteRate is a data rate in bytes per second. In YAML it is a number of
// bytes/s or a number with a unit: B/s, KB/s, MB/s, GB/s, TB/s (and KiB/s …
// TiB/s), or bits per second bps, Kbps, Mbps, Gbps, Tbps (powers of 1000, 8
// bits a byte), e.g. "9Gbps", "3.2GB/s", "40Kbps".
type ByteRate float64

var byteUnits = map[string]float64{
	"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
}

var rateUnits = map[string]float64{
	"B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12,
	"KiB/s": 1 << 10, "MiB/s": 1 << 20, "GiB/s": 1 << 30, "TiB/s": 1 << 40,
	"bps": 1.0 / 8, "Kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8, "Tbps": 1e12 / 8,
}

// parseQuantity parses "number[ ]unit" with the unit's multiplier from
// units; a bare number has multiplier 1. The result is finite and ≥ 0.
func parseQuantity(s string, units map[string]float64, what string) (float64, error) {
	t := strings.TrimSpace(s)
	cut := len(t)
	for cut > 0 && !isNumberByte(t[cut-1]) {
		cut--
	}
	num, unit := strings.TrimSpace(t[:cut]), strings.TrimSpace(t[cut:])
	mult := 1.0
	if unit != "" {
		m, ok := units[unit]
		if !ok {
			return 0, fmt.Errorf("%s %q: unknown unit %q (want %s)", what, s, unit, unitList(units))
		}
		mult = m
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %q: not a number with a unit (e.g. %s)", what, s, example(units))
	}
	v *= mult
	if !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s %q: must be a finite non-negative amount", what, s)
	}
	return v, nil
}

// isNumberByte reports whether c can end a number ("1e3", "2.", "5").
func isNumberByte(c byte) bool { return c >= '0' && c <= '9' || c == '.' }

func unitList(units map[string]float64) string {
	if _, ok := units["Gbps"]; ok {
		return "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s … TiB/s, bps, Kbps, Mbps, Gbps, Tbps"
	}
	return "B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB"
}

func example(units map[string]float64) string {
	if _, ok := units["Gbps"]; ok {
		return `"9Gbps" or "3.2GB/s"`
	}
	return `"400KB" or "16GiB"`
}

// UnmarshalYAML reads a number of bytes or a number with a unit.
func (b *Bytes) UnmarshalYAML(n *yaml.Node) error {
	v, err := scalarQuantity(n, byteUnits, "memory")
	*b = Bytes(v)
	return err
}

// UnmarshalYAML reads a number of bytes/s or a number with a unit.
func (r *ByteRate) UnmarshalYAML(n *yaml.Node) error {
	v, err := scalarQuantity(n, rateUnits, "retrieve_rate")
	*r = ByteRate(v)
	return err
}

func scalarQuantity(n *yaml.Node, units map[string]float64, what string) (float64, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, fmt.Errorf("line %d: %s must be a number or a number with a unit", n.Line, what)
	}
	v, err := parseQuantity(n.Value, units, what)
	if err != nil {
		return 0, fmt.Errorf("line %d: %w", n.Line, err)
	}
	return v, nil
}

// String formats an amount of bytes with a decimal unit ("400 KB").
func (b Bytes) String() string {
	return withUnit(float64(b), []string{"B", "KB", "MB", "GB", "TB", "PB"})
}

// String formats a rate with a decimal bytes/s unit ("1.12 GB/s").
func (r ByteRate) String() string {
	return withUnit(float64(r), []string{"B/s", "KB/s", "MB/s", "GB/s", "TB/s", "PB/s"})
}

func withUnit(v float64, units []string) string {
	u := 0
	for u < len(units)-1 && math.Abs(v) >= 1000 {
		v /= 1000
		u++
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " " + units[u]
}

// MachineResources is the optional capacity vector of one machine, in the
// units of the multi-resource (PRISM, seed 004 §3) model: cores, GB of
// memory, MB/s of local disk and MB/s of network. Zero means not given.
type MachineResources struct {
	CPUCores float64 `yaml:"cpu_cores,omitempty"`
	MemGB    float64 `yaml:"mem_gb,omitempty"`
	DiskMBs  float64 `yaml:"disk_mb_s,omitempty"`
	NetMBs   float64 `yaml:"net_mb_s,omitempty"`
}

// MemoryBytes is a machine's memory in bytes (memory, else memory_gb × 10⁹);
// 0 when the spec gives neither (no memory-fit rule on the type).
func (r ResourceType) MemoryBytes() float64 {
	if r.Memory > 0 {
		return float64(r.Memory)
	}
	return r.MemoryGB * 1e9
}

// RetrieveBytesPerS is a machine's data retrieval rate in bytes/s
// (retrieve_rate, else retrieve_rate_gbps × 10⁹/8); 0 when the spec gives
// neither (no data term in the type's execution times).
func (r ResourceType) RetrieveBytesPerS() float64 {
	if r.RetrieveRate > 0 {
		return float64(r.RetrieveRate)
	}
	return r.RetrieveRateGbps * 1e9 / 8
}

// checkModel validates the execution-time model's fields of a resource
// type: where names it in messages.
func (r ResourceType) checkModel(where string) error {
	if r.Memory > 0 && r.MemoryGB > 0 {
		return fmt.Errorf("%s (%s): memory and memory_gb are both given; give one (memory takes units: memory: 16GB)", where, r.Name)
	}
	if r.RetrieveRate > 0 && r.RetrieveRateGbps > 0 {
		return fmt.Errorf("%s (%s): retrieve_rate and retrieve_rate_gbps are both given; give one (retrieve_rate takes units: retrieve_rate: 9Gbps)", where, r.Name)
	}
	if m := r.MemoryBytes(); !(m >= 0 && m <= MaxMemoryBytes) {
		return fmt.Errorf("%s (%s): memory must be in [0, %g] bytes, got %v", where, r.Name, MaxMemoryBytes, m)
	}
	if v := r.RetrieveBytesPerS(); !(v >= 0 && v <= MaxRetrieveBytesPerS) {
		return fmt.Errorf("%s (%s): retrieve_rate must be in [0, %g] bytes/s, got %v", where, r.Name, MaxRetrieveBytesPerS, v)
	}
	if m := r.Resources; m != nil {
		for _, f := range []struct {
			name string
			v    float64
		}{{"cpu_cores", m.CPUCores}, {"mem_gb", m.MemGB}, {"disk_mb_s", m.DiskMBs}, {"net_mb_s", m.NetMBs}} {
			if !(f.v >= 0 && f.v <= MaxMachineAmount) {
				return fmt.Errorf("%s (%s): resources.%s must be a number in [0, %g], got %v", where, r.Name, f.name, MaxMachineAmount, f.v)
			}
		}
	}
	return nil
}
