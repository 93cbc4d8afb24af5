export interface ApiError {
  data: null;
  error: { status: number; name: string; message: string; details?: unknown };
}

export interface AuthResponse {
  jwt: string;
  user: { id: number; documentId: string; username: string; email: string; createdAt: string; [key: string]: unknown };
}

export interface Ingredient {
  id: number;
  documentId: string;
  ingredient_name: string;
  slug: string;
}

export interface ListResponse<T> {
  data: T[];
  meta: { pagination?: { total: number } };
}
