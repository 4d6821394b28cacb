package priorityclass

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/registry"
)

// EnsureSystemClasses creates the built-in classes that store lacks. It
// leaves existing ones alone: the Priority admission plugin keeps them from
// being changed or deleted.
func EnsureSystemClasses(ctx context.Context, lg *zap.Logger, store *registry.Store) error {
	for _, pc := range schedulingv1.SystemPriorityClasses() {
		_, err := store.Create(ctx, &pc, false)
		switch {
		case err == nil:
			lg.Info("created system priority class", zap.String("name", pc.Name), zap.Int32("value", pc.Value))
		case apierrors.IsAlreadyExists(err):
		default:
			return fmt.Errorf("create system priority class %s: %w", pc.Name, err)
		}
	}
	return nil
}
