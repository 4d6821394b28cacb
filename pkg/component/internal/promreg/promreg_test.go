package promreg

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestRegister(t *testing.T) {
	newCounter := func(name string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: "h"}, []string{"l"})
	}
	tests := []struct {
		name      string
		reg       prometheus.Registerer
		first     *prometheus.CounterVec
		second    prometheus.Collector
		wantSame  bool
		wantError bool
	}{
		{name: "same metric twice shares it", reg: prometheus.NewRegistry(), first: newCounter("a"), second: newCounter("a"), wantSame: true},
		{name: "conflicting type fails", reg: prometheus.NewRegistry(), first: newCounter("b"),
			second: prometheus.NewGauge(prometheus.GaugeOpts{Name: "b", Help: "other"}), wantError: true},
		{name: "nil registerer", reg: nil, first: newCounter("c"), second: newCounter("c")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Register(tt.reg, tt.first)
			if err != nil || got != tt.first {
				t.Fatalf("first Register = %v, %v", got, err)
			}
			switch c := tt.second.(type) {
			case *prometheus.CounterVec:
				got2, err := Register(tt.reg, c)
				if err != nil {
					t.Fatal(err)
				}
				if (got2 == tt.first) != tt.wantSame {
					t.Fatalf("shared = %v, want %v", got2 == tt.first, tt.wantSame)
				}
			default:
				_, err := Register(tt.reg, tt.second)
				if (err != nil) != tt.wantError {
					t.Fatalf("err = %v, want error %v", err, tt.wantError)
				}
			}
		})
	}
}
