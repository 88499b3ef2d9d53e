package mockserver

// Subscription is one subscription as the service returns it (the spec's
// "Subscription (returned by the service)"). The JSON names are the spec's.
// Optional destination fields are omitted when empty; every other field is
// always present in responses.
//
// Its fields are the mock's one table of a subscription's members: each one's
// role tag says what a client may do with it (fieldRole, fields.go), and the
// input validation and the list's sortBy values derive from them.
type Subscription struct {
	SubscriptionID              string `json:"subscriptionId" role:"managed"`
	EventName                   string `json:"eventName" role:"required"`
	DestinationType             string `json:"destinationType" role:"required"`
	LogLevel                    string `json:"logLevel" role:"required"`
	AccountID                   string `json:"accountId" role:"managed"`
	DestinationEmail            string `json:"destinationEmail,omitempty" role:"bulk"`
	EventStreamsEnvironment     string `json:"eventStreamsEnvironment,omitempty" role:"optional"`
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName,omitempty" role:"optional"`
	EventStreamsTopic           string `json:"eventStreamsTopic,omitempty" role:"optional"`
	Enabled                     bool   `json:"enabled" role:"optional"`
	CreatedDate                 int64  `json:"createdDate" role:"managed"`
	LastUpdatedDate             int64  `json:"lastUpdatedDate" role:"managed"`
	CreatedBy                   string `json:"createdBy" role:"managed"`
	LastUpdatedUserID           string `json:"lastUpdatedUserId" role:"managed"`
}

// subscriptionWrapper is the spec's SubscriptionWrapper as the list,
// create and replace operations answer it.
type subscriptionWrapper struct {
	Subscriptions      []Subscription      `json:"subscriptions"`
	PaginationMetadata *paginationMetadata `json:"paginationMetadata,omitempty"`
}

// singleWrapper is the SubscriptionWrapper variant that carries one
// subscription (SingleWrapped).
type singleWrapper struct {
	Subscription Subscription `json:"subscription"`
}

// paginationMetadata is the spec's PaginationMetadata.
type paginationMetadata struct {
	PageNumber       int32 `json:"pageNumber"`
	PageSize         int32 `json:"pageSize"`
	TotalPages       int32 `json:"totalPages"`
	TotalElements    int64 `json:"totalElements"`
	NumberOfElements int32 `json:"numberOfElements"`
	First            bool  `json:"first"`
	Last             bool  `json:"last"`
}

// operationStatus is the spec's OperationStatus, one per bulk item.
type operationStatus struct {
	SubscriptionID     string `json:"subscriptionId"`
	HTTPEquivalentCode int    `json:"httpEquivalentCode"`
	Message            string `json:"message"`
}

// patchResponse is the spec's SubscriptionPatchResponseWrapper.
type patchResponse struct {
	OperationStatuses []operationStatus `json:"operationStatuses"`
}

// topicResponse is the spec's CreateESSubscriptionResponse.
type topicResponse struct {
	Data topicResponseData `json:"data"`
}

type topicResponseData struct {
	EventStreamsSubscriptionCreate topicSubscription `json:"eventStreamsSubscriptionCreate"`
}

type topicSubscription struct {
	Name  string    `json:"name"`
	Topic topicInfo `json:"topic"`
}

type topicInfo struct {
	Name              string           `json:"name"`
	Environment       topicEnvironment `json:"environment"`
	SubscriptionCount int32            `json:"subscriptionCount"`
}

type topicEnvironment struct {
	ID string `json:"id"`
}

// errorBody is the spec's error body.
type errorBody struct {
	Error    string   `json:"error"`
	Messages []string `json:"messages"`
	Path     string   `json:"path"`
	ErrorID  string   `json:"errorId,omitempty"`
}

// catalogueRecord is one catalogue record in the object shapes.
type catalogueRecord struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// eventNameRecord is one event record in the CatalogueEventNameKey shape.
type eventNameRecord struct {
	EventName   string `json:"eventName"`
	Description string `json:"description"`
}
