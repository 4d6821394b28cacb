package endpoints

import (
	"fmt"
	"net/url"
	"strconv"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// InitialEventsEndAnnotation marks the BOOKMARK that ends the initial
// events of a watch with sendInitialEvents=true: everything the client
// holds now is the state at the bookmark's resourceVersion (upstream's
// k8s.io/initial-events-end).
const InitialEventsEndAnnotation = meta.InitialEventsEndAnnotation

// resourceVersionMatchNotOlderThan is the one resourceVersionMatch a watch
// takes; Exact is for lists only.
const resourceVersionMatchNotOlderThan = "NotOlderThan"

var listOptionsKind = meta.GroupVersionKind{Group: meta.GroupName, Version: "v1", Kind: "ListOptions"}

// sendInitialEvents reads the watch-list parameters of a watch: nil when
// sendInitialEvents is absent. As upstream, sendInitialEvents needs
// resourceVersionMatch=NotOlderThan, and when true also
// allowWatchBookmarks=true (the end of the initial events is a bookmark);
// resourceVersionMatch alone is not valid on a watch.
func sendInitialEvents(query url.Values) (*bool, error) {
	rvm := query.Get("resourceVersionMatch")
	v, set := query.Get("sendInitialEvents"), query.Has("sendInitialEvents")
	var errs field.ErrorList
	switch {
	case rvm != "" && rvm != resourceVersionMatchNotOlderThan && rvm != "Exact":
		errs = append(errs, field.NotSupported(field.NewPath("resourceVersionMatch"), rvm, []string{"Exact", resourceVersionMatchNotOlderThan}))
	case !set && rvm != "":
		errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
	}
	if !set {
		return nil, invalidListOptions(errs)
	}
	send, err := strconv.ParseBool(v)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("sendInitialEvents %q must be true or false", v))
	}
	if rvm != resourceVersionMatchNotOlderThan {
		errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
	}
	if send && !isTrue(query.Get("allowWatchBookmarks")) {
		errs = append(errs, field.Forbidden(field.NewPath("allowWatchBookmarks"), "sendInitialEvents requires setting allowWatchBookmarks to true"))
	}
	return &send, invalidListOptions(errs)
}

// listParamsOnly refuses sendInitialEvents on a list.
func listParamsOnly(query url.Values) error {
	if query.Has("sendInitialEvents") {
		return invalidListOptions(field.ErrorList{field.Forbidden(field.NewPath("sendInitialEvents"), "sendInitialEvents is forbidden for list")})
	}
	return nil
}

func invalidListOptions(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(listOptionsKind, "", errs.Causes())
}
