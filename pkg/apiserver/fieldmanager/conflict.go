package fieldmanager

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// conflictError is the 409 of an apply that conflicts: one cause per
// field, naming its manager, and upstream's message.
func conflictError(conflicts merge.Conflicts) *apierrors.StatusError {
	causes := make([]meta.StatusCause, 0, len(conflicts))
	for _, c := range conflicts {
		causes = append(causes, meta.StatusCause{
			Type:    meta.CauseTypeFieldManagerConflict,
			Message: "conflict with " + printManager(c.Manager),
			Field:   c.Path.String(),
		})
	}
	e := apierrors.New(http.StatusConflict, meta.StatusReasonConflict, conflictMessage(conflicts))
	e.ErrStatus.Details = &meta.StatusDetails{Causes: causes}
	return e
}

// printManager renders a manager identifier as upstream does: its name,
// its subresource, and for updaters the apiVersion and time.
func printManager(id string) string {
	e, err := parseIdentifier(id)
	if err != nil {
		return fmt.Sprintf("%q", id)
	}
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == OperationUpdate {
		if e.Time == nil {
			return fmt.Sprintf("%s using %s", s, e.APIVersion)
		}
		return fmt.Sprintf("%s using %s at %s", s, e.APIVersion, e.Time.UTC().Format(time.RFC3339))
	}
	return s
}

func conflictMessage(conflicts merge.Conflicts) string {
	if len(conflicts) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s", printManager(conflicts[0].Manager), conflicts[0].Path)
	}
	byManager := map[string][]fieldpath.Path{}
	var managers []string
	for _, c := range conflicts {
		if _, ok := byManager[c.Manager]; !ok {
			managers = append(managers, c.Manager)
		}
		byManager[c.Manager] = append(byManager[c.Manager], c.Path)
	}
	sort.Strings(managers)
	var lines []string
	for _, m := range managers {
		lines = append(lines, fmt.Sprintf("conflicts with %s:", printManager(m)))
		for _, p := range byManager[m] {
			lines = append(lines, fmt.Sprintf("- %s", p))
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(conflicts), strings.Join(lines, "\n"))
}
