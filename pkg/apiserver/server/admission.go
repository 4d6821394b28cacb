package server

import (
	"context"

	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/plugins"
	"platform.io/platform/pkg/apiserver/registry"
)

// buildAdmission builds the chain of the enabled admission plugins over the
// stores, which reach it through lateAdmission.
func (s *Server) buildAdmission() error {
	d := plugins.Deps{
		Logger:     s.lg.Named("admission"),
		Registerer: s.registry,
		Store: func(gr meta.GroupResource) *registry.Store {
			return s.store(gr.Group, gr.Resource)
		},
		NotReadyTolerationSeconds:    s.opts.API.DefaultNotReadyTolerationSeconds,
		UnreachableTolerationSeconds: s.opts.API.DefaultUnreachableTolerationSeconds,
	}
	chain, err := plugins.NewChain(d, s.opts.Admission.Enable, s.opts.Admission.Disable)
	if err != nil {
		return err
	}
	s.admission = chain
	s.lg.Info("admission plugins enabled", zap.Strings("plugins", chain.Names()))
	return nil
}

// lateAdmission lets the stores, built before the plugins that read them,
// reach the chain.
type lateAdmission struct{ s *Server }

func (l lateAdmission) Admit(ctx context.Context, a *admission.Attributes) error {
	return l.s.admission.Admit(ctx, a)
}

func (l lateAdmission) Validate(ctx context.Context, a *admission.Attributes) error {
	return l.s.admission.Validate(ctx, a)
}
