package mockserver

// Subscription is one subscription as the service returns it (the spec's
// "Subscription (returned by the service)"). The JSON names are the spec's.
// Optional destination fields are omitted when empty; every other field is
// always present in responses.
type Subscription struct {
	SubscriptionID              string `json:"subscriptionId"`
	EventName                   string `json:"eventName"`
	DestinationType             string `json:"destinationType"`
	LogLevel                    string `json:"logLevel"`
	AccountID                   string `json:"accountId"`
	DestinationEmail            string `json:"destinationEmail,omitempty"`
	EventStreamsEnvironment     string `json:"eventStreamsEnvironment,omitempty"`
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName,omitempty"`
	EventStreamsTopic           string `json:"eventStreamsTopic,omitempty"`
	Enabled                     bool   `json:"enabled"`
	CreatedDate                 int64  `json:"createdDate"`
	LastUpdatedDate             int64  `json:"lastUpdatedDate"`
	CreatedBy                   string `json:"createdBy"`
	LastUpdatedUserID           string `json:"lastUpdatedUserId"`
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
