package noderestriction

import (
	"context"

	authenticationv1 "platform.io/client/api/authentication/v1"

	"platform.io/platform/pkg/apiserver/admission"
)

// token lets a node request service account tokens only when bound to a
// pod (by name and uid) that runs on it. Other writes to service accounts
// are the authorizer's business.
func (p *Plugin) token(ctx context.Context, name string, a *admission.Attributes) error {
	if a.Operation != admission.Create || a.Subresource != "token" {
		return nil
	}
	tr, ok := a.Object.(*authenticationv1.TokenRequest)
	if !ok {
		return denyf("unexpected type %T", a.Object)
	}
	ref := tr.Spec.BoundObjectRef
	if ref == nil || ref.APIVersion != "v1" || ref.Kind != "Pod" || ref.Name == "" {
		return denyf("node requested token not bound to a pod")
	}
	if ref.UID == "" {
		return denyf("node requested token with a pod binding without a uid")
	}
	pod, err := p.getPod(ctx, a.Namespace, ref.Name)
	if err != nil {
		return err
	}
	if ref.UID != pod.UID {
		return denyf("the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", ref.UID)
	}
	if pod.Spec.NodeName != name {
		return denyf("node requested token bound to a pod scheduled on a different node")
	}
	return nil
}
