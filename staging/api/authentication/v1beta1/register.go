package v1beta1

import "platform.io/client/api/meta"

// GroupName is the API group of this package.
const GroupName = "authentication.platform.io"

// SchemeGroupVersion is the group version of this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1beta1"}
